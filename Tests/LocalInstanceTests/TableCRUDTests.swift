import Foundation
import NowData
import Testing

@testable import LocalInstance

@Suite struct TableCRUDTests {
    @Test func createGetUpdateDelete() async throws {
        let harness = try Harness(seed: false)
        let created = try await harness.send(
            "POST", "/api/now/table/incident",
            body: #"{"short_description":"Printer on fire","urgency":"1","impact":"2"}"#)
        #expect(created.statusCode == 201)
        let record = try Harness.result(created)
        let sysID = try #require(record["sys_id"] as? String)
        #expect(sysID.count == 32)
        #expect(record["number"] as? String == "INC0010001")
        #expect(record["priority"] as? String == "2")
        #expect(record["sys_created_on"] as? String == "2026-11-30 09:00:00")
        #expect(record["sys_created_by"] as? String == "admin")
        #expect(record["sys_mod_count"] as? String == "0")
        #expect(record["sys_class_name"] as? String == "incident")
        #expect(record["state"] as? String == "1")
        #expect(record["active"] as? String == "true")

        harness.clock.advance(seconds: 60)
        let updated = try await harness.send("PATCH", "/api/now/table/incident/\(sysID)", body: #"{"state":"2"}"#)
        #expect(updated.statusCode == 200)
        let after = try Harness.result(updated)
        #expect(after["state"] as? String == "2")
        #expect(after["sys_mod_count"] as? String == "1")
        #expect(after["sys_updated_on"] as? String == "2026-11-30 09:01:00")
        #expect(after["short_description"] as? String == "Printer on fire")

        let fetched = try await harness.send("GET", "/api/now/table/incident/\(sysID)")
        #expect(fetched.statusCode == 200)
        #expect(try Harness.result(fetched)["state"] as? String == "2")

        let deleted = try await harness.send("DELETE", "/api/now/table/incident/\(sysID)")
        #expect(deleted.statusCode == 204)
        #expect(deleted.body.isEmpty)
        let missing = try await harness.send("GET", "/api/now/table/incident/\(sysID)")
        #expect(missing.statusCode == 404)
        #expect(
            Harness.text(missing)
                == #"{"error":{"message":"No Record found","detail":"Record doesn't exist or ACL restricts the record retrieval"},"status":"failure"}"#
        )
    }

    @Test func listsDemoIncidents() async throws {
        let harness = try Harness()
        let response = try await harness.send(
            "GET", "/api/now/table/incident",
            query: [("sysparm_limit", "5"), ("sysparm_query", "active=true^ORDERBYnumber")])
        #expect(response.statusCode == 200)
        let rows = try Harness.results(response)
        #expect(rows.count == 5)
        #expect(rows.first?["number"] as? String == "INC0010001")
        #expect(response.headers["X-Total-Count"] != nil)
    }
}
