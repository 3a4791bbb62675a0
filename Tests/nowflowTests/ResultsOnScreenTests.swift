import Foundation
import Testing

/// `nowflow run` shows each step's result on stdout under its line; `--quiet` keeps a line per step.
@Suite struct ResultsOnScreenTests {
    static let job = """
        name: Open P1 incidents
        steps:
          - id: open
            query: { table: incident, where: { active: true, priority: 1 }, fields: [number, short_description], order_by: number }
          - set: { first: "${steps.open.records.0.number}" }
        outputs:
          count: steps.open.count
        """

    private func run(_ arguments: [String]) throws -> ToolInvocation {
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.job.write(to: directory.appendingPathComponent("job.yaml"), atomically: true, encoding: .utf8)
        return try ToolInvocation.run(["run", "job.yaml"] + arguments, in: directory)
    }

    private func normalized(_ text: String) -> String {
        text.replacingOccurrences(of: #"\d+ ms"#, with: "N ms", options: .regularExpression)
    }

    @Test func theRecordsAndValuesAreShownUnderEachLine() throws {
        let result = try run([])
        #expect(result.status == 0)
        #expect(
            normalized(result.stdout) == """
                     number      short_description
                     ----------  -----------------------------
                     INC0010001  Email server is down
                     INC0010019  Laptop screen flickering (2)
                     INC0010028  Website loading slowly (2)
                     INC0010037  Printer on floor 3 jammed (3)
                     INC0010055  Password reset request (4)
                     vars.first = "INC0010001"
                Open P1 incidents: passed (2 steps run, N ms)
                outputs:
                  count = 5

                """)
        #expect(
            normalized(result.stderr) == """
                ok   step 1 'open' (query): 5 records from incident (N ms)
                ok   step 2 (set): vars.first (N ms)

                """)
    }

    @Test func quietKeepsALinePerStep() throws {
        let result = try run(["--quiet"])
        #expect(result.status == 0)
        #expect(
            normalized(result.stdout) == """
                Open P1 incidents: passed (2 steps run, N ms)
                outputs:
                  count = 5

                """)
    }

    @Test func jsonOutputHasNoTables() throws {
        let result = try run(["--output", "json"])
        #expect(result.status == 0)
        ReportCheck.expectValid(result.stdout)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect((report["jobs"] as? [[String: Any]])?.first?["outputs"] as? [String: Int] == ["count": 5])
    }
}
