import Foundation
import NowData
import Testing

@testable import LocalInstance

@Suite struct TableHierarchyTests {
    let harness: Harness

    init() throws {
        harness = try Harness()
    }

    @Test func taskListsIncidentsProblemsAndChangesWithTheirClass() async throws {
        let response = try await harness.send(
            "GET", "/api/now/table/task", query: [("sysparm_query", "ORDERBYnumber"), ("sysparm_fields", "number,sys_class_name")])
        #expect(response.headers["X-Total-Count"] == "94")
        let rows = try Harness.results(response)
        let classes = Dictionary(grouping: rows, by: { $0["sys_class_name"] as? String ?? "" }).mapValues(\.count)
        #expect(
            classes == [
                "task": 3, "incident": 60, "problem": 10, "problem_task": 3, "change_request": 8, "change_task": 4,
                "sc_request": 2, "sc_req_item": 2, "sc_task": 2,
            ])
        #expect(rows.first?["number"] as? String == "CHG0030001")
        #expect(rows.first?["caller_id"] == nil)
        let one = try await harness.send(
            "GET", "/api/now/table/task/\(DemoData.sysID("incident", "INC0"))", query: [("sysparm_fields", "number")])
        #expect(Harness.text(one) == #"{"result":{"number":"INC0010001"}}"#)
    }

    @Test func writesThroughTheParentReachTheRecordsOwnTable() async throws {
        let sysID = DemoData.sysID("incident", "INC0")
        let closed = try await harness.send(
            "PATCH", "/api/now/table/task/\(sysID)", query: [("sysparm_fields", "state,active")], body: #"{"state":"7"}"#)
        #expect(Harness.text(closed) == #"{"result":{"state":"7","active":"false"}}"#)
        let incident = try Harness.result(
            try await harness.send("GET", "/api/now/table/incident/\(sysID)", query: [("sysparm_exclude_reference_link", "true")]))
        #expect(incident["closed_by"] as? String == DemoData.sysID("sys_user", "admin"))
        #expect(incident["sys_mod_count"] as? String == "2")
        let deleted = try await harness.send("DELETE", "/api/now/table/task/\(sysID)")
        #expect(deleted.statusCode == 204)
        #expect(try await harness.send("GET", "/api/now/table/incident/\(sysID)").statusCode == 404)
    }

    @Test func referencesToTheParentFindChildRecords() async throws {
        let response = try await harness.send(
            "GET", "/api/now/table/incident",
            query: [
                ("sysparm_query", "cmdb_ci.name=db-prod-01^ORDERBYnumber"), ("sysparm_fields", "number,cmdb_ci"),
                ("sysparm_display_value", "true"), ("sysparm_exclude_reference_link", "true"), ("sysparm_limit", "1"),
            ])
        #expect(Harness.text(response) == #"{"result":[{"number":"INC0010003","cmdb_ci":"db-prod-01"}]}"#)
        let cis = try await harness.send("GET", "/api/now/table/cmdb_ci", query: [("sysparm_limit", "1")])
        #expect(cis.headers["X-Total-Count"] == "21")
    }

    @Test func sysIDsAreUniqueAcrossTheHierarchy() async throws {
        let taken = DemoData.sysID("incident", "INC0")
        let response = try await harness.send(
            "POST", "/api/now/table/task", body: #"{"sys_id":"\#(taken)","short_description":"Clash"}"#)
        #expect(response.statusCode == 403)
    }
}
