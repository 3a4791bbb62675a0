import Foundation
import LocalInstance
import NowData
import Testing

@testable import NowFlow

/// The REPL's short forms of attach, download, attachments and aggregate, shown as tables.
@Suite struct ReplAttachmentTests {
    @Test func attachDownloadListAndAggregateAtThePrompt() async throws {
        let harness = try ReplHarness(width: 100)
        let notes = harness.directory.appendingPathComponent("notes.txt")
        try Data("Printer on fire\n".utf8).write(to: notes)
        let incident = try #require(
            try JSONValue(json: try await harness.session.service.records(
                from: "incident",
                configuration: FetchConfiguration(filter: Filter(query: "number=INC0010001"), limit: 1))
            )["result"]?[0]?["sys_id"]?.string)
        let out = harness.directory.appendingPathComponent("out.txt").path
        let transcript = await harness.transcript([
            "attach incident \(incident) \(notes.path) id=notes",
            "attachments incident \(incident)",
            "download ${steps.notes.sys_id} \(out)",
            "download ${steps.notes.sys_id} \(out)",
            "aggregate incident group_by=priority active=true",
            "aggregate incident active=true",
            "attach incident \(incident)",
        ])
        let attachment = try #require(await harness.session.scope.steps["notes"]?.json["sys_id"]?.string)
        let created = try #require(await harness.session.scope.steps["notes"]?.json["attachment"]?["sys_created_on"]?.string)
        var groups: [String] = []
        for priority in 1...5 {
            let count = try await Self.count(harness, "incident", "active=true^priority=\(priority)")
            if count > 0 { groups.append("\(priority)         \(count)") }
        }
        let open = try await Self.count(harness, "incident", "active=true")
        #expect(
            harness.normalized(
                transcript.replacingOccurrences(of: attachment, with: "<attachment>")
                    .replacingOccurrences(of: AttachmentStepTests.printerHash, with: "<hash>")) == """
                nowflow> attach incident <sys_id> notes.txt id=notes
                notes (attach): attached notes.txt (16 bytes, SHA-256 <hash>) to incident <sys_id>
                sys_id          <attachment>
                file_name       notes.txt
                content_type    text/plain
                size_bytes      16
                hash            <hash>
                table_name      incident
                table_sys_id    <sys_id>
                sys_created_on  \(created) +00:00
                nowflow> attachments incident <sys_id>
                _1 (attachments): 1 attachment on incident <sys_id>
                sys_id                            file_name  content_type  size_bytes  sys_created_on
                --------------------------------  ---------  ------------  ----------  --------------------------
                <attachment>  notes.txt  text/plain    16          \(created) +00:00
                1 record
                nowflow> download ${steps.notes.sys_id} out.txt
                _2 (download): downloaded notes.txt (16 bytes, SHA-256 verified) to out.txt
                sys_id          <attachment>
                file_name       notes.txt
                content_type    text/plain
                size_bytes      16
                hash            <hash>
                table_name      incident
                table_sys_id    <sys_id>
                sys_created_on  \(created) +00:00
                path            out.txt
                nowflow> download ${steps.notes.sys_id} out.txt
                error: (download): to: 'out.txt' exists (out.txt); give overwrite: true to replace it
                nowflow> aggregate incident group_by=priority active=true
                _3 (aggregate): \(groups.count) groups of incident by priority
                priority  count
                --------  -----
                \(groups.joined(separator: "\n"))
                \(groups.count) records
                nowflow> aggregate incident active=true
                _4 (aggregate): \(open) incident records matching 'active=true'
                count  \(open)
                nowflow> attach incident <sys_id>
                error at column 1: attach needs table, sys_id and file, as in: attach TABLE SYS_ID FILE

                """)
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "Printer on fire\n")
        #expect(await harness.session.scope.steps["notes"]?.json["attachment"]?["hash"]?.string == AttachmentStepTests.printerHash)
    }

    /// How many records of `table` match `query`, read through the Table API.
    static func count(_ harness: ReplHarness, _ table: String, _ query: String) async throws -> Int {
        let data = try await harness.session.service.records(
            from: table,
            configuration: FetchConfiguration(
                filter: Filter(query: query), limit: 10000,
                readConfiguration: FieldReadConfiguration(includeFields: ["sys_id"])))
        return try JSONValue(json: data)["result"]?.array?.count ?? 0
    }

    @Test func pathsAreCompletedWhereAFileIsExpected() {
        #expect(ReplCompleter.completesPath("attach incident 5c1d ./no"))
        #expect(ReplCompleter.completesPath("id=a attach incident 5c1d "))
        #expect(ReplCompleter.completesPath("download 9f2e ou"))
        #expect(ReplCompleter.completesPath("attach: { table: incident, sys_id: x, file: "))
        #expect(!ReplCompleter.completesPath("attach incident 5c1d ./notes.txt na"))
        #expect(!ReplCompleter.completesPath("attach incident 5c"))
        #expect(!ReplCompleter.completesPath("download 9f2e out.txt overwrite="))
        #expect(!ReplCompleter.completesPath("attachments incident 5c1d "))
    }

    @Test func theShortFormsTakeParametersAndConditions() throws {
        let catalog = CompletionCatalog()
        #expect(ReplCompleter.completions(for: "aggregate incident gr", catalog: catalog) == ["group_by="])
        #expect(ReplCompleter.completions(for: "download x y ov", catalog: catalog) == ["overwrite="])
        #expect(ReplCompleter.completions(for: "download x y overwrite=t", catalog: catalog) == ["true"])
    }
}
