import Foundation
import Testing

/// Every example runbook of `workflows/` runs green on a fresh embedded instance, twice (they are re-runnable), with
/// no warning (a value that is not one of a field's choices, say); its JSON report, which has a result of each kind
/// among them, is valid against `docs/report.schema.json` (``ReportCheck``).
@Suite struct WorkflowTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("workflows")

    static let workflows = [
        "incident-lifecycle.yaml", "close-stale-incidents.yaml", "onboard-user.yaml", "register-servers.yaml",
        "change-request.yaml", "caller-incidents.yaml", "team-drift.yaml", "stale-incident-cleanup.yaml",
        "attach-report.yaml", "incident-report.yaml", "standard-change.yaml", "import-cis.yaml",
        "order-catalog-item.yaml",
    ]
    /// The workflows that only read: their dry run has no writes to list.
    static let readOnly: Set = ["incident-report.yaml"]

    /// The jobs under `workflows/shared/`, which the workflows include (and which run alone too).
    static let shared = ["shared/find-caller.yaml"]

    @Test func everyWorkflowIsListed() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.directory.path).filter {
            $0.hasSuffix(".yaml")
        }
        #expect(files.sorted() == Self.workflows.sorted())
    }

    @Test(arguments: workflows)
    func runsGreenTwice(_ name: String) throws {
        let home = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        let path = Self.directory.appendingPathComponent(name).path
        for _ in 1...2 {
            let result = try ToolInvocation.run(["run", path, "--report", "json:report.json"], in: home)
            #expect(result.status == 0, "\(name): \(result.stderr)\n\(result.stdout)")
            ReportCheck.expectValid(try String(contentsOf: home.appendingPathComponent("report.json"), encoding: .utf8))
            #expect(result.stdout.contains(": passed ("))
            #expect(!result.stderr.contains("FAIL"))
            #expect(!result.stderr.contains("warning:"), "\(name): \(result.stderr)")
        }
    }

    /// A dry run of each reads, prints its writes (none for a workflow that only reads) and passes: what fails only
    /// on the stand-ins of writes not sent is reported as skipped.
    @Test(arguments: workflows)
    func passesInADryRun(_ name: String) throws {
        let home = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        let path = Self.directory.appendingPathComponent(name).path
        let result = try ToolInvocation.run(["run", path, "--dry-run", "--report", "json:report.json"], in: home)
        #expect(result.status == 0, "\(name): \(result.stderr)\n\(result.stdout)")
        ReportCheck.expectValid(try String(contentsOf: home.appendingPathComponent("report.json"), encoding: .utf8))
        #expect(result.stdout.contains(", dry run)"))
        #expect(result.stdout.contains("writes not sent (dry run):") == !Self.readOnly.contains(name))
        #expect(!result.stderr.contains("FAIL"))
        #expect(!result.stderr.contains("warning:"), "\(name): \(result.stderr)")
    }

    @Test func everySharedJobIsListed() throws {
        let files = try FileManager.default.contentsOfDirectory(
            atPath: Self.directory.appendingPathComponent("shared").path)
        #expect(files.filter { $0.hasSuffix(".yaml") }.map { "shared/" + $0 }.sorted() == Self.shared.sorted())
    }

    @Test(arguments: shared)
    func aSharedJobRunsGreenAlone(_ name: String) throws {
        let home = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        let result = try ToolInvocation.run(["run", Self.directory.appendingPathComponent(name).path], in: home)
        #expect(result.status == 0, "\(name): \(result.stderr)\n\(result.stdout)")
        #expect(result.stdout.contains(": passed ("))
    }

    @Test(arguments: workflows + shared)
    func validates(_ name: String) throws {
        let home = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        let result = try ToolInvocation.run(["validate", Self.directory.appendingPathComponent(name).path], in: home)
        #expect(result.status == 0, "\(result.stderr)")
    }
}
