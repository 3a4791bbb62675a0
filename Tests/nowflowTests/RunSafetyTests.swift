import Foundation
import Testing

/// What `nowflow run` refuses before it sends anything: a `--var` not of its variable's type, a report it could
/// not write.
@Suite struct RunSafetyTests {
    static let job = """
        name: Keep
        vars:
          keep: false
          max_changes: 2
          label: note
        steps:
          - id: open
            query: { table: incident, where: { active: true }, limit: "${vars.max_changes}" }
          - assert: "steps.open.count == vars.max_changes"
          - update: { table: incident, where: { active: true, short_description: nothing-matches }, max: "${vars.max_changes}", fields: { urgency: 1 } }
        finally:
          - assert: "!vars.keep"
        """

    private func directory() throws -> URL {
        let directory = try ToolInvocation.temporaryDirectory()
        try Self.job.write(to: directory.appendingPathComponent("job.yaml"), atomically: true, encoding: .utf8)
        return directory
    }

    @Test(arguments: [
        (
            ["--var", "keep=yes"],
            "nowflow run: --var keep=yes: vars.keep is a boolean (declared false); give true or false"
        ),
        (
            ["--var", "max_changes=many"],
            "nowflow run: --var max_changes=many: vars.max_changes is a number (declared 2); 'many' is not a number"
        ),
        (
            ["--report", "junit:missing/r.xml"],
            "nowflow run: --report junit:missing/r.xml: the directory missing does not exist; create it first"
        ),
        (
            ["--report", "junit:/proc/r.xml"],
            "nowflow run: --report junit:/proc/r.xml: cannot write /proc/r.xml: No such file or directory"
        ),
        (["--report", "json:."], "nowflow run: --report json:.: . is a directory"),
    ])
    func refusedBeforeAnythingRunsWithExitOne(_ arguments: [String], _ message: String) throws {
        let directory = try directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try ToolInvocation.run(["run", "job.yaml"] + arguments, in: directory)
        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(result.stderr == message + "\nsee 'nowflow run --help'\n")
        // Nothing ran: the embedded instance was never opened.
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent(".nowflow").path))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("missing").path))
    }

    @Test func typedVariablesReachLimitAndMaxWithTheirTypes() throws {
        let directory = try directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try ToolInvocation.run(
            ["run", "job.yaml", "--var", "keep=true", "--var", "max_changes=3"], in: directory)
        #expect(result.status == 4, "\(result.stderr)")
        #expect(
            result.stderr.replacingOccurrences(of: #"\d+ ms"#, with: "N ms", options: .regularExpression) == """
                ok   step 1 'open' (query): 3 records from incident (N ms)
                ok   step 2 (assert): holds: steps.open.count == vars.max_changes (N ms)
                ok   step 3 (update): updated 0 incident records (N ms)
                ASSERT finally 1 (assert): assertion failed: !vars.keep (N ms)

                """)
    }
}
