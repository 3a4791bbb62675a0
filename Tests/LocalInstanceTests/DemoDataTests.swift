import Foundation
import NowData
import Testing

@testable import LocalInstance

@Suite struct DemoDataTests {
    @Test func twoInstancesHoldTheSameRecords() async throws {
        let first = try Harness()
        let second = try Harness()
        for table in [
            "sys_user", "sys_user_group", "sys_user_grmember", "incident", "problem", "change_request", "cmdb_ci",
            "cmdb_ci_server", "task",
        ] {
            let a = try await first.send("GET", "/api/now/table/\(table)")
            let b = try await second.send("GET", "/api/now/table/\(table)")
            #expect(a.statusCode == 200)
            #expect(a.body == b.body, "table \(table)")
        }
    }

    @Test func stableSysIDsAndCounts() async throws {
        #expect(
            DemoData.sysID("sys_user", "abel.tuter")
                == String(SHA256.hex("nowflow-demo:sys_user:abel.tuter").prefix(32)))
        #expect(SHA256.hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let harness = try Harness()
        let admin = try await harness.send(
            "GET", "/api/now/table/sys_user", query: [("user_name", "admin"), ("sysparm_fields", "name,sys_id")])
        #expect(
            Harness.text(admin)
                == #"{"result":[{"name":"System Administrator","sys_id":"\#(DemoData.sysID("sys_user", "admin"))"}]}"#)
        let counts = try harness.instance.database.read { db in
            try ["sys_user", "sys_user_group", "incident", "problem", "change_request", "cmdb_ci_server"].map { name in
                try harness.instance.store.count(
                    try #require(harness.instance.dictionary.table(name)), where: "", [], db)
            }
        }
        #expect(counts == [419, 7, 60, 10, 8, 13])
        let states = try await harness.send(
            "GET", "/api/now/table/incident", query: [("sysparm_query", "state=7"), ("sysparm_no_count", "false")])
        #expect(states.headers["X-Total-Count"] == "10")
        let changes = try await harness.send(
            "GET", "/api/now/table/change_request",
            query: [("sysparm_query", "ORDERBYnumber"), ("sysparm_fields", "number,state"), ("sysparm_limit", "2")])
        #expect(
            Harness.text(changes)
                == #"{"result":[{"number":"CHG0030001","state":"-5"},{"number":"CHG0030002","state":"-4"}]}"#)
    }

    @Test func fileDatabaseIsSeededOnceAndKeepsWrites() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nowflow-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("instance.db").path
        let first = try Harness { $0.databasePath = path }
        let created = try await first.send(
            "POST", "/api/now/table/incident", body: #"{"short_description":"Persisted"}"#)
        #expect(try Harness.result(created)["number"] as? String == "INC0010061")
        first.instance.close()
        let second = try Harness {
            $0.databasePath = path
            $0.adminPassword = "changed"
        }
        let auth = "Basic " + Data("admin:changed".utf8).base64EncodedString()
        let listed = try await second.send(
            "GET", "/api/now/table/incident", query: [("sysparm_query", "short_description=Persisted")],
            headers: [("Authorization", auth)])
        #expect(listed.headers["X-Total-Count"] == "1")
        let total = try await second.send("GET", "/api/now/table/incident", headers: [("Authorization", auth)])
        #expect(total.headers["X-Total-Count"] == "61")
        let oldPassword = try await second.send("GET", "/api/now/table/incident")
        #expect(oldPassword.statusCode == 401)
        let next = try await second.send(
            "POST", "/api/now/table/incident", body: #"{}"#,
            headers: [("Authorization", auth), ("Content-Type", "application/json")])
        #expect(try Harness.result(next)["number"] as? String == "INC0010062")
    }
}
