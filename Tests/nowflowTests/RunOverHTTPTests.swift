import Foundation
import LocalInstance
import Testing

@Suite struct RunOverHTTPTests {
    @Test func aURLInstanceIsReachedOverHTTPWithTheJobsCredentials() throws {
        let instance = try LocalInstance(options: LocalInstance.Options(adminPassword: "pw-over-http", log: { _ in }))
        defer { instance.close() }
        let listener = try HTTPListener { request in instance.reply(to: request) }
        defer { listener.stop() }
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try """
        name: Remote
        auth:
          basic: { user: admin, password: "${env.NOW_PASSWORD}" }
        steps:
          - id: p1
            query: { table: incident, where: { priority: 1 }, fields: [number], page_size: 3 }
          - assert: "steps.p1.count > 3"
        """.write(to: directory.appendingPathComponent("remote.yaml"), atomically: true, encoding: .utf8)
        let url = "http://127.0.0.1:\(listener.port)"
        let good = try ToolInvocation.run(
            ["run", "remote.yaml", "--instance", url], in: directory, environment: ["NOW_PASSWORD": "pw-over-http"])
        #expect(good.status == 0, "\(good.stderr)")
        // The embedded instance was not opened; only the name check's cache of this instance's dictionary is kept.
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent(".nowflow/local.db").path))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent(".nowflow").path)
                == ["schema"])
        let refused = try ToolInvocation.run(
            ["run", "remote.yaml", "--instance", url], in: directory, environment: ["NOW_PASSWORD": "wrong-pw"])
        #expect(refused.status == 3)
        #expect(refused.stderr.hasPrefix("FAIL step 1 'p1' (query): bad response 401 from GET /api/now/table/incident"))
        #expect(!refused.stderr.contains("wrong-pw") && !refused.stdout.contains("wrong-pw"))
    }

    @Test func aTableNameOrSysIDThatNeedsEncodingReachesTheInstanceOverHTTP() throws {
        let instance = try LocalInstance(options: LocalInstance.Options(adminPassword: "pw-encoded", log: { _ in }))
        defer { instance.close() }
        let listener = try HTTPListener { request in instance.reply(to: request) }
        defer { listener.stop() }
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let jobs = [
            "record": #"get: { table: incident, sys_id: "a#b/c?" }"#,
            // A literal table name must be one (lowercase letters, digits, `_`); one from the environment is not checked.
            "table": #"query: { table: "${env.TABLE}", where: { active: true } }"#,
        ]
        for (name, step) in jobs {
            try """
            name: Encoded
            auth:
              basic: { user: admin, password: pw-encoded }
            steps:
              - id: s
                \(step)
            """.write(to: directory.appendingPathComponent("\(name).yaml"), atomically: true, encoding: .utf8)
        }
        let url = "http://127.0.0.1:\(listener.port)"

        let record = try ToolInvocation.run(["run", "record.yaml", "--instance", url], in: directory)
        let table = try ToolInvocation.run(
            ["run", "table.yaml", "--instance", url], in: directory, environment: ["TABLE": "my table"])

        #expect(record.status == 3)
        #expect(
            record.stderr.hasPrefix(
                "FAIL step 1 's' (get): bad response 404 from GET /api/now/table/incident/a%23b%2Fc%3F: No Record found "
                    + "(Record doesn't exist or ACL restricts the record retrieval)"), "\(record.stderr)")
        #expect(table.status == 3)
        #expect(
            table.stderr.hasPrefix(
                "FAIL step 1 's' (query): bad response 400 from GET /api/now/table/my%20table: Invalid table my table"),
            "\(table.stderr)")
    }
}
