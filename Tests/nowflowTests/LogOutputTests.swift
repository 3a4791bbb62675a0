import Foundation
import Testing

/// `nowflow run`'s logs keep the data when stdout is not a terminal (a pipe, a file, a CI log): no value is cut,
/// `--quiet` prints the failures and the outcome only, a dry run lists each write once, and the outcome counts
/// only what there is.
@Suite struct LogOutputTests {
    private func run(_ job: String, _ arguments: [String]) throws -> ToolInvocation {
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try job.write(to: directory.appendingPathComponent("job.yaml"), atomically: true, encoding: .utf8)
        var result = try ToolInvocation.run(["run", "job.yaml"] + arguments, in: directory)
        for text in [\ToolInvocation.stdout, \ToolInvocation.stderr] {
            result[keyPath: text] = result[keyPath: text]
                .replacingOccurrences(of: #"\d+ ms"#, with: "N ms", options: .regularExpression)
                .replacingOccurrences(of: #"[0-9a-f]{32}"#, with: "<sys_id>", options: .regularExpression)
        }
        return result
    }

    static let long = """
        name: Long values
        steps:
          - id: made
            create:
              table: incident
              fields:
                short_description: The badge reader at the north entrance of building 4 rejects every badge issued after November
          - id: read
            query: { table: incident, where: { sys_id: "${steps.made.sys_id}" } }
          - set: { note: "${steps.read.records.0.short_description} (reported twice this week by the night shift)" }
        finally:
          - delete: { table: incident, sys_id: "${steps.made.sys_id}" }
        """

    /// Piped, the tables and values are as wide as their values: nothing is cut to 80 columns.
    @Test func aPipeGetsEveryValueWhole() throws {
        let result = try run(Self.long, [])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout == """
                     number             INC0010061
                     short_description  The badge reader at the north entrance of building 4 rejects every badge issued after November
                     number      short_description                                                                               state  sys_id
                     ----------  ----------------------------------------------------------------------------------------------  -----  --------------------------------
                     INC0010061  The badge reader at the north entrance of building 4 rejects every badge issued after November  1      <sys_id>
                     vars.note = "The badge reader at the north entrance of building 4 rejects every badge issued after November (reported twice this week by the night shift)"
                Long values: passed (4 steps run, N ms)
                records touched:
                  incident INC0010061 (<sys_id>): created by step 1 'made' (create), deleted by finally 1 (delete)

                """)
    }

    static let failing = """
        name: Quiet
        steps:
          - id: make
            foreach: "${['a', 'b', 'c']}"
            steps:
              - create: { table: incident, fields: { short_description: "quiet ${item}" } }
          - id: found
            query: { table: incident, where: { short_description: { starts_with: "quiet " } } }
          - assert: "steps.found.count == 4"
        finally:
          - delete: { table: incident, query: "short_descriptionSTARTSWITHquiet ", max: 10 }
        """

    /// `--quiet`: no line per step or per item, only the failed step's; the outcome on stdout as without it.
    @Test func quietPrintsTheFailedStepsAndTheOutcomeOnly() throws {
        let result = try run(Self.failing, ["--quiet"])
        #expect(result.status == 4)
        #expect(
            result.stderr == """
                ASSERT step 3 (assert): assertion failed: steps.found.count == 4 (3 == 4 is false) (N ms)

                """)
        #expect(
            result.stdout == """
                Quiet: assertion failed (7 steps run, N ms)
                  job.yaml:9:5: step 3 (assert): assertion failed: steps.found.count == 4 (3 == 4 is false)
                records the run changed and deleted again:
                  incident INC0010061 (<sys_id>): created by step 1[0].1 (create), deleted by finally 1 (delete)
                  incident INC0010062 (<sys_id>): created by step 1[1].1 (create), deleted by finally 1 (delete)
                  incident INC0010063 (<sys_id>): created by step 1[2].1 (create), deleted by finally 1 (delete)

                """)
    }

    static let writing = """
        name: Writes
        steps:
          - id: made
            create: { table: incident, fields: { short_description: Listed once } }
          - update: { table: incident, sys_id: "${steps.made.sys_id}", fields: { urgency: 1 } }
        """

    /// A dry run lists each write once, in the outcome (stdout): the steps' lines do not repeat them, and a dry run
    /// that left nothing unchecked does not count what it did not skip.
    @Test func aDryRunListsEachWriteOnce() throws {
        let result = try run(Self.writing, ["--dry-run"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr == """
                ok   step 1 'made' (create): would create a record in incident (dry run) (N ms)
                ok   step 2 (update): would update incident dry-run-1 (dry run) (N ms)

                """)
        #expect(
            result.stdout == """
                     short_description  Listed once
                     urgency  1
                Writes: dry run passed (2 steps run, N ms, dry run)
                writes not sent (dry run):
                  POST /api/now/table/incident {"short_description":"Listed once","sys_id":"dry-run-1"}
                  PATCH /api/now/table/incident/dry-run-1 {"urgency":"1"}
                    dry-run-1 "Listed once": urgency (empty) → 1

                """)
        let quiet = try run(Self.writing, ["--dry-run", "--quiet"])
        #expect(quiet.status == 0)
        #expect(quiet.stderr == "")
        #expect(
            quiet.stdout == """
                Writes: dry run passed (2 steps run, N ms, dry run)
                writes not sent (dry run):
                  POST /api/now/table/incident {"short_description":"Listed once","sys_id":"dry-run-1"}
                  PATCH /api/now/table/incident/dry-run-1 {"urgency":"1"}
                    dry-run-1 "Listed once": urgency (empty) → 1

                """)
    }
}
