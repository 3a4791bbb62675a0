import Foundation
import LocalInstance
import NowData
import Testing

@testable import NowFlow

/// The names an update by query reports in the records-touched summary: taken from the second opinion's read when
/// the write sets none of the fields that name a record, read from the instance's answers when it renames them.
@Suite struct UpdateByQueryNameTests {
    /// The summary with times and sys_ids replaced.
    private func summary(_ result: RunResult) -> String {
        RunHarness.normalized(result.summaryText()).replacingOccurrences(
            of: #"\d+ ms"#, with: "N ms", options: .regularExpression)
    }

    /// The value of `field` of each record of `table` that `query` matches, asked directly of the instance.
    private func values(_ field: String, _ table: String, _ query: String, in harness: RunHarness) throws -> [String] {
        let reply = harness.instance.reply(
            to: NowHTTPRequest(
                method: "GET", path: "/api/now/table/\(table)",
                queryItems: [
                    URLQueryItem(name: "sysparm_query", value: query),
                    URLQueryItem(name: "sysparm_fields", value: field),
                ],
                headers: ["Authorization": "Basic " + Data("admin:admin".utf8).base64EncodedString()]))
        guard case .respond(let response, _) = reply, case .array(let records) = try JSONValue(json: response.body)["result"]
        else { return [] }
        return records.compactMap { $0[field]?.string }
    }

    @Test func aWriteThatKeepsTheNamesReportsTheRecordsNames() async throws {
        let harness = try RunHarness()
        let incidents = try values("number", "incident", "category=network", in: harness)
        try #require(incidents.count > 1)
        let users = try values("name", "sys_user", "user_name=beth.anglin^ORuser_name=admin", in: harness)
        try #require(users.count == 2)
        let result = try await harness.run(
            """
            name: Raise
            steps:
              - update: { table: incident, query: "category=network", max: 1000, fields: { urgency: 1 } }
              - update: { table: sys_user, query: "user_name=beth.anglin^ORuser_name=admin", max: 2, fields: { email: x@example.com } }
            """)
        #expect(result.status == .passed)
        let touched =
            incidents.map { "  incident \($0) (<sys_id>): updated by step 1 (update)" }
            + users.map { "  sys_user \($0) (<sys_id>): updated by step 2 (update)" }
        #expect(
            summary(result) == """
                Raise: passed (2 steps run, N ms)
                records touched:
                \(touched.joined(separator: "\n"))
                """)
    }

    @Test func aWriteThatRenamesReportsTheNewNames() async throws {
        let harness = try RunHarness()
        let result = try await harness.run(
            """
            name: Rename
            steps:
              - update: { table: incident, query: "number=INC0010001", max: 1, fields: { number: INC0090001, urgency: 1 } }
              - update: { table: sys_user_group, where: { name: Database }, max: 1, fields: { name: Databases } }
              - update: { table: sys_user, where: { user_name: beth.anglin }, max: 1, fields: { name: Beth A. Anglin } }
            """)
        #expect(result.status == .passed)
        #expect(
            summary(result) == """
                Rename: passed (3 steps run, N ms)
                records touched:
                  incident INC0090001 (<sys_id>): updated by step 1 (update)
                  sys_user_group Databases (<sys_id>): updated by step 2 (update)
                  sys_user Beth A. Anglin (<sys_id>): updated by step 3 (update)
                """)
    }
}
