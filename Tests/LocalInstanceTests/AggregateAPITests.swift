import Foundation
import NowData
import TestSupport
import Testing

@testable import LocalInstance

/// The Aggregate API (`/api/now/stats/{table}`) over four servers: counts, sums, averages, minimums and maximums,
/// whole and grouped, with a query, `sysparm_having`, `sysparm_order_by` and display values.
@Suite struct AggregateAPITests {
    static func harness() async throws -> Harness {
        let harness = try Harness(seed: false)
        for (name, classification, ram, cpus) in [
            ("web1", "Production", 1024, 2), ("web2", "Production", 2048, 4), ("test1", "Test", 512, 1),
            ("dev1", "Development", 4096, 8),
        ] {
            let created = try await harness.send(
                "POST", "/api/now/table/cmdb_ci_server",
                body: #"{"name":"\#(name)","classification":"\#(classification)","ram":\#(ram),"cpu_count":\#(cpus)}"#)
            #expect(created.statusCode == 201)
        }
        return harness
    }

    static func stats(_ harness: Harness, _ query: [(String, String)]) async throws -> String {
        let response = try await harness.send("GET", "/api/now/stats/cmdb_ci_server", query: query)
        #expect(response.statusCode == 200)
        return Harness.text(response)
    }

    @Test func wholeSelection() async throws {
        let harness = try await Self.harness()
        #expect(
            try await Self.stats(
                harness,
                [
                    ("sysparm_count", "true"), ("sysparm_sum_fields", "ram"), ("sysparm_avg_fields", "cpu_count"),
                    ("sysparm_min_fields", "ram,name"), ("sysparm_max_fields", "ram"),
                ])
                == #"{"result":{"stats":{"count":"4","avg":{"cpu_count":"3.75"},"min":{"ram":"512","name":"dev1"},"#
                + #""max":{"ram":"4096"},"sum":{"ram":"7680"}}}}"#)
        #expect(
            try await Self.stats(harness, [("sysparm_count", "true"), ("sysparm_query", "classification=Production")])
                == #"{"result":{"stats":{"count":"2"}}}"#)
        #expect(
            try await Self.stats(harness, [("sysparm_count", "true"), ("sysparm_query", "name=nothing")])
                == #"{"result":{"stats":{"count":"0"}}}"#)
    }

    @Test func grouped() async throws {
        let harness = try await Self.harness()
        func group(_ value: String, _ count: Int, _ ram: Int) -> String {
            #"{"stats":{"count":"\#(count)","sum":{"ram":"\#(ram)"}},"#
                + #""groupby_fields":[{"field":"classification","value":"\#(value)"}]}"#
        }
        let base = [("sysparm_count", "true"), ("sysparm_sum_fields", "ram"), ("sysparm_group_by", "classification")]
        #expect(
            try await Self.stats(harness, base)
                == #"{"result":["# + [group("Development", 1, 4096), group("Production", 2, 3072), group("Test", 1, 512)]
                .joined(separator: ",") + "]}")
        #expect(
            try await Self.stats(harness, base + [("sysparm_having", "count^sys_id^>^1")])
                == #"{"result":["# + group("Production", 2, 3072) + "]}")
        #expect(
            try await Self.stats(harness, base + [("sysparm_order_by", "COUNT^DESC")])
                == #"{"result":["# + [group("Production", 2, 3072), group("Development", 1, 4096), group("Test", 1, 512)]
                .joined(separator: ",") + "]}")
        #expect(
            try await Self.stats(
                harness,
                [
                    ("sysparm_count", "true"), ("sysparm_group_by", "classification"), ("sysparm_display_value", "true"),
                    ("sysparm_query", "ram>=2048"),
                ])
                == #"{"result":[{"stats":{"count":"1"},"groupby_fields":[{"field":"classification","value":"#
                + #""Development","display_value":"Development"}]},{"stats":{"count":"1"},"groupby_fields":[{"#
                + #""field":"classification","value":"Production","display_value":"Production"}]}]}"#)
    }

    @Test func errorsAnswerWithTheirBodies() async throws {
        let harness = try await Self.harness()
        let field = try await harness.send("GET", "/api/now/stats/cmdb_ci_server", query: [("sysparm_sum_fields", "nope")])
        #expect(field.statusCode == 400)
        #expect(
            Harness.text(field)
                == #"{"error":{"message":"Invalid aggregate field","detail":"cmdb_ci_server has no field 'nope'"},"#
                + #""status":"failure"}"#)
        let table = try await harness.send("GET", "/api/now/stats/u_none", query: [("sysparm_count", "true")])
        #expect(Harness.text(table) == #"{"error":{"message":"Invalid table u_none","detail":null},"status":"failure"}"#)
        let having = try await harness.send(
            "GET", "/api/now/stats/cmdb_ci_server",
            query: [("sysparm_group_by", "classification"), ("sysparm_having", "count^>1")])
        #expect(having.statusCode == 400)
        #expect(try await harness.send("GET", "/api/now/stats/incident", headers: []).statusCode == 401)
        #expect(try await harness.send("POST", "/api/now/stats/incident", body: "{}").statusCode == 405)
    }

    @Test func overHTTP() async throws {
        let instance = try LocalInstance(options: .init(adminPassword: "secret", log: { _ in }))
        let listener = try HTTPListener { request in instance.reply(to: request) }
        defer {
            listener.stop()
            instance.close()
        }
        let client = HTTPTestClient(port: listener.port)
        let headers = ["Authorization": Harness.adminAuth]
        let reply = try await client.send(
            "GET", "/api/now/stats/incident?sysparm_count=true&sysparm_group_by=priority", headers: headers)
        #expect(reply.status == 200)
        let object = try #require(try JSONSerialization.jsonObject(with: reply.body) as? [String: Any])
        let groups = try #require(object["result"] as? [[String: Any]])
        let total = groups.compactMap { ($0["stats"] as? [String: Any])?["count"] as? String }.compactMap(Int.init)
            .reduce(0, +)
        let all = try await client.send("GET", "/api/now/table/incident?sysparm_limit=1", headers: headers)
        #expect(String(total) == all.header("X-Total-Count"))
    }
}
