import Foundation
import Testing

/// A dry run shows what it would change: the records each update or delete touches, and each field from → to.
@Suite struct DryRunDiffTests {
    static let job = """
        name: Diff
        steps:
          - update: { table: incident, where: { number: INC0010005 }, max: 1, fields: { urgency: 1, impact: 1, category: network } }
          - id: one
            query: { table: incident, where: { number: INC0010004 }, limit: 1, fields: [sys_id] }
          - delete: { table: incident, sys_id: "${steps.one.records.0.sys_id}" }
          - id: made
            create: { table: incident, fields: { short_description: dry } }
          - update: { table: incident, sys_id: "${steps.made.sys_id}", fields: { short_description: wet } }
        """

    private func run(_ arguments: [String]) throws -> ToolInvocation {
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.job.write(to: directory.appendingPathComponent("job.yaml"), atomically: true, encoding: .utf8)
        return try ToolInvocation.run(["run", "job.yaml", "--dry-run"] + arguments, in: directory)
    }

    @Test func theSummaryShowsEachRecordAndEachChange() throws {
        let result = try run([])
        #expect(result.status == 0)
        #expect(
            result.stdout.replacingOccurrences(of: #"\d+ ms"#, with: "N ms", options: .regularExpression)
                .replacingOccurrences(of: #"[0-9a-f]{32}"#, with: "<sys_id>", options: .regularExpression) == """
                     number    INC0010005
                     urgency   1
                     impact    1
                     category  network
                     sys_id    <sys_id>
                     sys_id
                     --------------------------------
                     <sys_id>
                     short_description  dry
                     short_description  wet
                Diff: dry run passed (5 steps run, N ms, dry run)
                writes not sent (dry run):
                  PATCH /api/now/table/incident/<sys_id> {"category":"network","impact":"1","urgency":"1"}
                    INC0010005 "Cannot access shared drive": impact 2 → 1, urgency 2 → 1
                  DELETE /api/now/table/incident/<sys_id>
                    INC0010004 "Laptop screen flickering"
                  POST /api/now/table/incident {"short_description":"dry","sys_id":"dry-run-1"}
                  PATCH /api/now/table/incident/dry-run-1 {"short_description":"wet"}
                    dry-run-1 "dry": short_description dry → wet

                """)
    }

    @Test func theJSONReportHoldsStructuredRecords() throws {
        let result = try run(["--output", "json"])
        ReportCheck.expectValid(result.stdout)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let job = try #require((report["jobs"] as? [[String: Any]])?.first)
        let writes = try #require(job["planned_writes"] as? [[String: Any]])
        #expect(writes.count == 4)
        let update = try #require((writes[0]["records"] as? [[String: Any]])?.first)
        #expect(update["display"] as? String == #"INC0010005 "Cannot access shared drive""#)
        #expect(
            NSDictionary(dictionary: try #require(update["fields"] as? [String: Any]))
                == NSDictionary(dictionary: ["impact": ["from": "2", "to": "1"], "urgency": ["from": "2", "to": "1"]]))
        #expect(writes[0]["body"] as? [String: String] == ["category": "network", "impact": "1", "urgency": "1"])
        let delete = try #require((writes[1]["records"] as? [[String: Any]])?.first)
        #expect(delete["display"] as? String == #"INC0010004 "Laptop screen flickering""#)
        #expect((delete["fields"] as? [String: Any])?.isEmpty == true)
        #expect(writes[2]["records"] == nil)
    }
}
