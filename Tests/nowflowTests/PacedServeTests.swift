import Foundation
import Testing
import TestSupport

/// Issue 26 end to end: `nowflow serve --profile pdi` (rules counted per second) answers with its limits' headers,
/// and `nowflow run --rate` lives within a rule, its pace on the progress lines.
@Suite struct PacedServeTests {
    @Test func aRunWithARateStaysWithinTheRuleOfAPDIProfileServer() async throws {
        let server = try await ServeProcess([
            "--db", ":memory:", "--password", "pw", "--profile", "pdi", "--rate-window", "1",
        ])
        let authorization = "Basic " + Data("admin:pw".utf8).base64EncodedString()
        let rule = #"{"name":"Everyone","rate_limit":"100","type":"all_users","rest_api":"table"}"#
        let created = try RawHTTPClient.exchange(
            Array(
                ("POST /api/now/table/sys_rate_limit_rules HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "Authorization: \(authorization)\r\nContent-Type: application/json\r\n"
                    + "Content-Length: \(rule.utf8.count)\r\nConnection: close\r\n\r\n" + rule).utf8),
            port: server.port)
        #expect(created.status == 201)
        #expect(created.header("Server-Timing") == "sem_wait;dur=0, sesh_wait;dur=0")
        let read = try RawHTTPClient.send(
            "GET", "/api/now/table/incident?sysparm_limit=1", headers: ["Authorization": authorization],
            port: server.port)
        #expect(read.status == 200)
        #expect(read.header("X-RateLimit-Limit") == "100")
        #expect(read.header("Set-Cookie")?.hasPrefix("JSESSIONID=") == true)

        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try """
        name: Paced
        auth:
          basic: { user: admin, password: pw }
        vars:
          items: [\((1...200).map(String.init).joined(separator: ", "))]
        steps:
          - id: each
            foreach: vars.items
            parallel: 4
            steps:
              - query: { table: incident, limit: 1, fields: [number] }
        """.write(to: directory.appendingPathComponent("job.yaml"), atomically: true, encoding: .utf8)
        let result = try ToolInvocation.run(
            ["run", "job.yaml", "--instance", "http://127.0.0.1:\(server.port)", "--offline", "--rate", "50/s"],
            in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        // 200 requests at 50 a second take 4 s: a plain progress line is due after 3, with the pace.
        #expect(result.stderr.contains("(paced: 50/s, 100 per rate-limit window)\n"), "\(result.stderr)")
        #expect(result.stderr.contains("ok   step 1 'each' (foreach): 200 items, 4 at a time ("), "\(result.stderr)")
    }
}
