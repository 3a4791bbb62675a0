import Foundation
import Testing

/// A dry run is a run until its first write not sent: the asserts before it read only the instance's answers and
/// are enforced; those after it may read stand-ins and are reported as not enforced.
@Suite struct DryRunAssertTests {
    static let readOnly = """
        name: Read only
        steps:
          - id: open
            query: { table: incident, where: { active: true, priority: 1 }, limit: 100, fields: [number] }
            show: false
          - assert: "steps.open.count == 99"
        """

    static let writing = """
        name: Writing
        steps:
          - id: open
            query: { table: incident, where: { active: true, priority: 1 }, limit: 100, fields: [number] }
            show: false
          - assert: "steps.open.count == 5"
          - id: made
            create: { table: incident, fields: { short_description: dry } }
            show: false
          - id: back
            get: { table: incident, sys_id: "${steps.made.sys_id}" }
            show: false
          - assert: "steps.back.record.short_description == 'wet'"
        """

    private func run(_ job: String, _ arguments: [String]) throws -> ToolInvocation {
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try job.write(to: directory.appendingPathComponent("job.yaml"), atomically: true, encoding: .utf8)
        var result = try ToolInvocation.run(["run", "job.yaml"] + arguments, in: directory)
        for text in [\ToolInvocation.stdout, \ToolInvocation.stderr] {
            result[keyPath: text] = result[keyPath: text]
                .replacingOccurrences(of: #"\d+ ms"#, with: "N ms", options: .regularExpression)
        }
        return result
    }

    /// A read-only job dry-runs exactly as it runs: its false assert fails the dry run with exit status 4.
    @Test func aReadOnlyJobDryRunsAsItRuns() throws {
        let dry = try run(Self.readOnly, ["--dry-run"])
        let real = try run(Self.readOnly, [])
        #expect(dry.status == 4)
        #expect(real.status == 4)
        let steps = """
            ok   step 1 'open' (query): 5 records from incident (N ms)
            ASSERT step 2 (assert): assertion failed: steps.open.count == 99 (5 == 99 is false) (N ms)

            """
        #expect(dry.stderr == steps)
        #expect(real.stderr == steps)
        #expect(
            dry.stdout == """
                Read only: assertion failed (2 steps run, N ms, dry run)
                  job.yaml:6:5: step 2 (assert): assertion failed: steps.open.count == 99 (5 == 99 is false)

                """)
    }

    /// The assert before the first write not sent is enforced (and holds); the one after it reads the stand-in
    /// of the create, and is reported as not enforced.
    @Test func anAssertAfterTheFirstWriteNotSentIsNotEnforced() throws {
        let dry = try run(Self.writing, ["--dry-run"])
        #expect(dry.status == 0)
        #expect(
            dry.stderr == """
                ok   step 1 'open' (query): 5 records from incident (N ms)
                ok   step 2 (assert): holds: steps.open.count == 5 (N ms)
                ok   step 3 'made' (create): would create a record in incident (dry run) (N ms)
                ok   step 4 'back' (get): incident dry-run-1 (dry run) (N ms)
                skip step 5 (assert): not enforced in a dry run: assertion failed: steps.back.record.short_description == 'wet' ('dry' == 'wet' is false) (N ms)

                """)
        #expect(dry.stdout.hasPrefix("Writing: dry run passed, 1 assert not enforced (4 steps run, N ms, dry run)\n"))
    }
}
