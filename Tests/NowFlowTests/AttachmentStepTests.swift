import Foundation
import LocalInstance
import NowData
import Testing

@testable import NowFlow

/// The `attach`, `download`, `attachments` and `aggregate` steps, on the embedded instance, with paths relative to
/// the job file.
@Suite struct AttachmentStepTests {
    /// A fresh directory for one test's job file and files.
    static func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("attach-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The expected lines as ``RunHarness/lines`` shows them (a hash is two sys_id-like runs there).
    static func normalized(_ lines: [String]) -> [String] {
        lines.map(RunHarness.normalized)
    }

    static let printerHash = "49a0e11d87e3fd8fd6967a63efc09018870a6e3adc1cb3c50c3547eeefd9c722"

    /// A parallel foreach's items read relative paths from the job file's directory too, not the current one.
    @Test func aParallelForeachAttachesFilesRelativeToTheJobFile() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("Printer on fire\n".utf8).write(to: directory.appendingPathComponent("notes.txt"))
        let harness = try RunHarness()
        let job = """
            name: Parallel attachments
            steps:
              - id: incident
                create: { table: incident, fields: { short_description: Printer on fire } }
              - foreach: "[1, 2]"
                parallel: 2
                steps:
                  - attach: { table: incident, sys_id: "${steps.incident.sys_id}", file: notes.txt }
              - id: list
                attachments: { table: incident, sys_id: "${steps.incident.sys_id}" }
              - assert: steps.list.count == 2
            finally:
              - delete: { table: incident, sys_id: "${steps.incident.sys_id}" }
            """
        let result = try await harness.run(job, file: directory.appendingPathComponent("job.yaml").path)
        #expect(result.status == .passed, "\(result.error ?? "")")
        #expect(result.steps.filter { $0.number.hasPrefix("2[") }.map(\.file) == Array(repeating: result.file, count: 2))
    }

    @Test func attachListDownloadAndDeleteRoundTrip() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("Printer on fire\n".utf8).write(to: directory.appendingPathComponent("notes.txt"))
        let harness = try RunHarness()
        // The same job runs twice: first before `out/` exists, then after.
        let job = """
            name: Attachments
            steps:
              - id: incident
                create: { table: incident, fields: { short_description: Printer on fire } }
              - id: notes
                attach: { table: incident, sys_id: "${steps.incident.sys_id}", file: notes.txt }
              - id: report
                attach: { table: incident, sys_id: "${steps.incident.sys_id}", name: "my report ü.txt", content: "open: ${steps.incident.record.state}" }
              - id: list
                attachments: { table: incident, sys_id: "${steps.incident.sys_id}" }
              - assert: steps.list.count == 2
              - assert: steps.list.attachments.1.file_name == 'my report ü.txt'
              - id: copy
                download: { attachment: "${steps.notes.sys_id}", to: out/copy.txt }
              - id: by_name
                download: { table: incident, sys_id: "${steps.incident.sys_id}", file_name: "my report ü.txt", to: report.txt }
              - assert: steps.copy.attachment.hash == steps.notes.attachment.hash
              - delete: { table: sys_attachment, sys_id: "${steps.notes.sys_id}" }
              - id: after
                attachments: { table: incident, sys_id: "${steps.incident.sys_id}" }
            finally:
              - delete: { table: incident, sys_id: "${steps.incident.sys_id}" }
            """
        let result = try await harness.run(job, file: directory.appendingPathComponent("job.yaml").path)
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("out"), withIntermediateDirectories: true)
        #expect(result.status == .failed)
        // The download into a directory that does not exist fails, and says where it wrote.
        #expect(
            RunHarness.normalized(result.error ?? "").hasPrefix(
                "step 7 'copy' (download): to: cannot write 'out/copy.txt' (\(directory.path)/out/copy.txt): "))
        let rerun = try await harness.run(job, file: directory.appendingPathComponent("job.yaml").path)
        #expect(rerun.status == .passed, "\(rerun.error ?? "")")
        let lines = harness.lines.suffix(12)
        #expect(
            Array(lines) == Self.normalized([
                "ok   step 1 'incident' (create): created incident <sys_id> (N ms)",
                "ok   step 2 'notes' (attach): attached notes.txt (16 bytes, SHA-256 \(Self.printerHash)) to incident <sys_id> (N ms)",
                "ok   step 3 'report' (attach): attached my report ü.txt (7 bytes, SHA-256 aea6ed06cadadad69fe0958e8b40982e739d03fbf4c7a459a191516250a1eef8) to incident <sys_id> (N ms)",
                "ok   step 4 'list' (attachments): 2 attachments on incident <sys_id> (N ms)",
                "ok   step 5 (assert): holds: steps.list.count == 2 (N ms)",
                "ok   step 6 (assert): holds: steps.list.attachments.1.file_name == 'my report ü.txt' (N ms)",
                "ok   step 7 'copy' (download): downloaded notes.txt (16 bytes, SHA-256 verified) to out/copy.txt (N ms)",
                "ok   step 8 'by_name' (download): downloaded my report ü.txt (7 bytes, SHA-256 verified) to report.txt (N ms)",
                "ok   step 9 (assert): holds: steps.copy.attachment.hash == steps.notes.attachment.hash (N ms)",
                "ok   step 10 (delete): deleted sys_attachment <sys_id> (N ms)",
                "ok   step 11 'after' (attachments): 1 attachment on incident <sys_id> (N ms)",
                "ok   finally 1 (delete): deleted incident <sys_id> (N ms)",
            ]))
        let incidentID = try #require(rerun.results["incident"]?["sys_id"]?.string)
        #expect(
            rerun.steps[1].message
                == "attached notes.txt (16 bytes, SHA-256 \(Self.printerHash)) to incident \(incidentID)")
        #expect(try String(contentsOf: directory.appendingPathComponent("out/copy.txt"), encoding: .utf8) == "Printer on fire\n")
        #expect(try String(contentsOf: directory.appendingPathComponent("report.txt"), encoding: .utf8) == "open: 1")
        let notes = try #require(rerun.results["notes"]?["attachment"])
        #expect(notes["content_type"] == "text/plain")
        #expect(notes["size_bytes"] == "16")
        #expect(notes["file_name"] == "notes.txt")
        #expect(rerun.results["copy"]?["path"] == .string(directory.appendingPathComponent("out/copy.txt").path))
        let noteID = try #require(rerun.results["notes"]?["sys_id"]?.string)
        #expect(rerun.records.contains(TouchedRecord(action: .created, table: "sys_attachment", sysID: noteID, step: "step 2 'notes' (attach)")))
        #expect(rerun.recordNumbers[noteID] == "notes.txt")
        // The report went with its incident; the notes were deleted by step 10 and are not listed twice.
        let reportID = try #require(rerun.results["report"]?["sys_id"]?.string)
        #expect(
            rerun.records.filter { $0.table == "sys_attachment" && $0.action == .deleted } == [
                TouchedRecord(action: .deleted, table: "sys_attachment", sysID: noteID, step: "step 10 (delete)"),
                TouchedRecord(action: .deleted, table: "sys_attachment", sysID: reportID, step: "finally 1 (delete)"),
            ])
        // Deleting the incident deleted its other attachment.
        #expect(try harness.count("sys_attachment", "file_name=my report ü.txt") == 0)
    }

    @Test func aDownloadRefusesToOverwriteUnlessAsked() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("old".utf8).write(to: directory.appendingPathComponent("out.txt"))
        let harness = try RunHarness()
        let job = """
            name: Overwrite
            vars: { overwrite: false }
            steps:
              - id: incident
                create: { table: incident, fields: { short_description: Overwrite } }
              - id: notes
                attach: { table: incident, sys_id: "${steps.incident.sys_id}", name: new.txt, content: new }
              - download: { attachment: "${steps.notes.sys_id}", to: out.txt, overwrite: "${vars.overwrite}" }
            finally:
              - delete: { table: incident, sys_id: "${steps.incident.sys_id}" }
            """
        let refused = try await harness.run(
            job.replacingOccurrences(of: #"overwrite: "${vars.overwrite}""#, with: "overwrite: false"),
            file: directory.appendingPathComponent("job.yaml").path)
        #expect(
            refused.error
                == "step 3 (download): to: 'out.txt' exists (\(directory.path)/out.txt); give overwrite: true to replace it")
        #expect(try String(contentsOf: directory.appendingPathComponent("out.txt"), encoding: .utf8) == "old")
        let replaced = try await harness.run(
            job.replacingOccurrences(of: #"overwrite: "${vars.overwrite}""#, with: "overwrite: true"),
            file: directory.appendingPathComponent("job.yaml").path)
        #expect(replaced.status == .passed)
        #expect(try String(contentsOf: directory.appendingPathComponent("out.txt"), encoding: .utf8) == "new")
    }

    @Test func aMissingFileAndAMissingRecordFailTheStep() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let harness = try RunHarness()
        let missingFile = try await harness.run(
            """
            name: Missing
            steps:
              - attach: { table: incident, sys_id: nothing, file: ./nope.txt }
            """, file: directory.appendingPathComponent("job.yaml").path)
        #expect(
            missingFile.error
                == "step 1 (attach): file: cannot read './nope.txt' (\(directory.path)/nope.txt): no such file")
        let missingRecord = try await harness.run(
            """
            name: Missing
            steps:
              - attach: { table: incident, sys_id: nothing, name: a.txt, content: "" }
            """, file: directory.appendingPathComponent("job.yaml").path)
        #expect(
            missingRecord.error?.hasPrefix("step 1 (attach): bad response 404 from POST /api/now/attachment/file") == true)
    }

    @Test func aDryRunShowsWhatWouldBeUploadedAndSendsNothing() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("Printer on fire\n".utf8).write(to: directory.appendingPathComponent("notes.txt"))
        let harness = try RunHarness()
        let incident = try #require(try harness.sysIDs("incident", "number=INC0010001").first)
        let result = try await harness.run(
            """
            name: Dry
            steps:
              - id: notes
                attach: { table: incident, sys_id: \(incident), file: notes.txt }
              - id: copy
                download: { attachment: "${steps.notes.sys_id}", to: copy.txt }
              - delete: { table: sys_attachment, sys_id: "${steps.notes.sys_id}" }
            """, dryRun: true, file: directory.appendingPathComponent("job.yaml").path)
        #expect(result.status == .passed, "\(result.error ?? "")")
        #expect(
            harness.lines == Self.normalized([
                "ok   step 1 'notes' (attach): would attach notes.txt (16 bytes, SHA-256 \(Self.printerHash)) to incident <sys_id> (dry run) (N ms)",
                "ok   step 2 'copy' (download): read notes.txt (16 bytes, SHA-256 verified); would write copy.txt (dry run) (N ms)",
                "ok   step 3 (delete): would delete sys_attachment dry-run-1 (dry run) (N ms)",
            ]))
        #expect(
            result.plannedWrites.map(\.description) == [
                "POST /api/now/attachment/file?table_name=incident&table_sys_id=\(incident)&file_name=notes.txt <16 bytes text/plain, SHA-256 \(Self.printerHash)>",
                "DELETE /api/now/table/sys_attachment/dry-run-1",
            ])
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("copy.txt").path))
        #expect(try harness.count("sys_attachment", "table_sys_id=\(incident)") == 0)
        #expect(harness.requests.allSatisfy { $0.method == "GET" })
    }

    @Test func aggregateCountsAndGroups() async throws {
        let harness = try RunHarness()
        let result = try await harness.run(
            """
            name: Report
            steps:
              - id: open
                aggregate: { table: incident, where: { active: true } }
              - id: by_priority
                aggregate: { table: incident, query: active=true, group_by: [priority], sum: [reopen_count] }
              - assert: steps.open.stats.count > 0
            """)
        #expect(result.status == .passed, "\(result.error ?? "")")
        let open = try harness.count("incident", "active=true")
        #expect(result.results["open"] == .object(["stats": ["count": .number(JSONNumber(open))]]))
        var groups: [JSONValue] = []
        for priority in 1...5 {
            let count = try harness.count("incident", "active=true^priority=\(priority)")
            guard count > 0 else { continue }
            groups.append([
                "group": ["priority": .string("\(priority)")],
                "stats": ["count": .number(JSONNumber(count)), "sum": ["reopen_count": "0"]],
            ])
        }
        #expect(result.results["by_priority"] == .object(["groups": .array(groups), "count": .number(JSONNumber(groups.count))]))
        #expect(
            harness.lines == [
                "ok   step 1 'open' (aggregate): \(open) incident records matching 'active=true' (N ms)",
                "ok   step 2 'by_priority' (aggregate): \(groups.count) groups of incident by priority (N ms)",
                "ok   step 3 (assert): holds: steps.open.stats.count > 0 (N ms)",
            ])
    }

    @Test func validationChecksTheStepsKeysAndResults() throws {
        let text = """
            name: Bad
            steps:
              - id: a
                attach: { table: incident, sys_id: x, file: f.txt, content: y }
              - id: b
                attach: { table: incident, sys_id: x, content: y }
              - id: c
                download: { attachment: x, table: incident, to: y }
              - download: { attachment: x }
              - id: d
                aggregate: { table: incident, count: false }
              - id: e
                aggregate: { table: incident, group_by: priority, sumx: [a] }
              - assert: steps.e.stats.count > 0
              - assert: len(steps.e.count)
            """
        var diagnostics: [String] = []
        do {
            _ = try JobFile.parse(text, file: "job.yaml")
        } catch {
            diagnostics = error.diagnostics.map(\.description)
        }
        #expect(
            diagnostics == [
                "job.yaml:4:65: error: attach takes file: or content:, not both",
                "job.yaml:6:13: error: attach with content: needs name: (the attachment's file name)",
                "job.yaml:8:39: error: download takes attachment: or table:, sys_id: and file_name:, not both",
                "job.yaml:9:15: error: download needs to:",
                "job.yaml:11:16: error: aggregate with count: false needs sum:, avg:, min: or max: (a list of fields)",
                "job.yaml:13:55: error: unknown key 'sumx' in aggregate; did you mean 'sum'?",
                "job.yaml:14:13: error: steps.e.stats: an aggregate step's result has no 'stats'; it has groups and count",
                "job.yaml:15:13: error: assert: the condition gives a number, not true or false",
                "job.yaml:15:17: error: len() needs a string, an array or an object, not a number",
            ])
    }

    @Test func theNamesOfTheStepsAreCheckedAgainstTheDictionary() async throws {
        let harness = try RunHarness()
        let job = try JobFile.parse(
            """
            name: Typos
            steps:
              - attach: { table: incidnet, sys_id: x, name: a.txt, content: a }
              - attachments: { table: incident, sys_id: x }
              - download: { table: problm, sys_id: x, file_name: a.txt, to: a.txt }
              - aggregate: { table: incident, where: { activ: true }, group_by: [priorty], sum: reopen_cont, order_by: COUNT^DESC }
            """, file: "job.yaml")
        let diagnostics = await JobRunner(job: job, options: .inProcess(on: harness.instance)).checkNames().diagnostics
        #expect(
            diagnostics.map(\.description) == [
                "job.yaml:3:22: error: unknown table 'incidnet'; did you mean 'incident'?",
                "job.yaml:5:24: error: unknown table 'problm'; did you mean 'problem'?",
                "job.yaml:6:44: error: unknown field 'activ' in incident; did you mean 'active'?",
                "job.yaml:6:70: error: unknown field 'priorty' in incident; did you mean 'priority'?",
                "job.yaml:6:85: error: unknown field 'reopen_cont' in incident; did you mean 'reopen_count'?",
            ])
    }
}
