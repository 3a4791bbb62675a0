import Foundation
import NowData
import Testing

@testable import LocalInstance

/// The Import Set API (`/api/now/import/{staging_table}...`) on the demo instance: rows transformed through the
/// demo transform maps (incidents coalescing on their correlation id, servers on their name), what a second
/// identical row does, `insertMultiple`, reading a row's outcome, the errors, and who may load rows.
@Suite struct ImportSetAPITests {
    static func result(
        _ set: String, _ staging: String, map: String, table: String, display: String, value: String, status: String,
        sysID: String, message: String? = nil
    ) -> String {
        #"{"import_set":"\#(set)","staging_table":"\#(staging)","result":[{"transform_map":"\#(map)","#
            + #""table":"\#(table)","display_name":"\#(display)","display_value":"\#(value)","#
            + #""record_link":"http://localhost/api/now/table/\#(table)/\#(sysID)","status":"\#(status)","#
            + #""sys_id":"\#(sysID)""# + (message.map { #","status_message":"\#($0)""# } ?? "") + "}]}"
    }

    static func target(_ response: NowHTTPResponse) throws -> String {
        try #require(try JSONValue(json: response.body).value(at: "result.0.sys_id").string)
    }

    @Test func anIncidentRowIsInsertedThenIgnoredThenUpdated() async throws {
        let harness = try Harness()
        let row = #"{"u_correlation_id":"alert-42","u_short_description":"Disk full on lnx-app-01","#
            + #""u_caller":"Abel Tuter","u_urgency":"2","u_impact":"2"}"#
        let first = try await harness.send("POST", "/api/now/import/u_incident_import", body: row)
        #expect(first.statusCode == 201)
        let sysID = try Self.target(first)
        let incident = try Harness.result(
            try await harness.send("GET", "/api/now/table/incident/\(sysID)", query: [("sysparm_display_value", "true"), ("sysparm_exclude_reference_link", "true")]))
        let number = try #require(incident["number"] as? String)
        #expect(
            Harness.text(first)
                == Self.result(
                    "ISET0010001", "u_incident_import", map: "Incident import", table: "incident", display: "number",
                    value: number, status: "inserted", sysID: sysID))
        #expect(incident["caller_id"] as? String == "Abel Tuter")
        #expect(incident["priority"] as? String == "3 - Moderate")
        #expect(incident["correlation_id"] as? String == "alert-42")

        let second = try await harness.send("POST", "/api/now/import/u_incident_import", body: row)
        #expect(
            Harness.text(second)
                == Self.result(
                    "ISET0010001", "u_incident_import", map: "Incident import", table: "incident", display: "number",
                    value: number, status: "ignored", sysID: sysID, message: "No field values changed"))

        let changed = try await harness.send(
            "POST", "/api/now/import/u_incident_import", body: #"{"u_correlation_id":"alert-42","u_urgency":"1"}"#)
        #expect(
            Harness.text(changed)
                == Self.result(
                    "ISET0010001", "u_incident_import", map: "Incident import", table: "incident", display: "number",
                    value: number, status: "updated", sysID: sysID))
        let rows = try Harness.results(
            try await harness.send(
                "GET", "/api/now/table/u_incident_import",
                query: [("sysparm_fields", "sys_import_row,sys_import_state,sys_target_sys_id,sys_id")]))
        #expect(rows.map { $0["sys_import_state"] as? String } == ["inserted", "ignored", "updated"])
        #expect(rows.map { $0["sys_import_row"] as? String } == ["0", "1", "2"])

        // A row read back answers what its POST did.
        let rowID = try #require(rows[1]["sys_id"] as? String)
        let read = try await harness.send("GET", "/api/now/import/u_incident_import/\(rowID)")
        #expect(read.statusCode == 200)
        #expect(Harness.text(read) == Harness.text(second))
    }

    @Test func insertMultipleLoadsServersCoalescingOnTheirName() async throws {
        let harness = try Harness()
        let body = #"{"records":[{"u_name":"lnx-app-01","u_ram":"32768"},"#
            + #"{"Name":"lnx-web-09","IP address":"10.0.9.9","OS":"Linux Debian"}]}"#
        let loaded = try await harness.send("POST", "/api/now/import/u_cmdb_ci_server_import/insertMultiple", body: body)
        #expect(loaded.statusCode == 201)
        let answer = try Harness.json(loaded)
        let setID = try #require(answer["import_set_id"] as? String)
        let multiID = try #require(answer["multi_import_set_id"] as? String)
        #expect(Harness.text(loaded) == #"{"import_set_id":"\#(setID)","multi_import_set_id":"\#(multiID)"}"#)
        let set = try Harness.result(
            try await harness.send("GET", "/api/now/table/sys_import_set/\(setID)", query: [("sysparm_exclude_reference_link", "true")]))
        #expect(set["state"] as? String == "processed")
        #expect(set["multi_import_set"] as? String == multiID)
        let rows = try Harness.results(
            try await harness.send(
                "GET", "/api/now/table/u_cmdb_ci_server_import",
                query: [("sysparm_query", "sys_import_set=\(setID)^ORDERBYsys_import_row")]))
        #expect(rows.map { $0["sys_import_state"] as? String } == ["updated", "inserted"])
        // lnx-app-01 is a Linux server of the demo data: a server class record, so the coalesce finds it.
        #expect(rows.first?["sys_target_sys_id"] as? String == DemoData.sysID("cmdb_ci_linux_server", "lnx-app-01"))
        let web = try Harness.results(
            try await harness.send(
                "GET", "/api/now/table/cmdb_ci_server",
                query: [("sysparm_query", "name=lnx-web-09"), ("sysparm_fields", "ip_address,os")]))
        #expect(web.map { [$0["ip_address"] as? String, $0["os"] as? String] } == [["10.0.9.9", "Linux Debian"]])
    }

    @Test func theErrorsAreThePlatformsShapes() async throws {
        let harness = try Harness()
        let notStaging = try await harness.send("POST", "/api/now/import/incident", body: "{}")
        #expect(notStaging.statusCode == 400)
        #expect(
            Harness.text(notStaging)
                == #"{"error":{"message":"Invalid staging table incident","#
                + #""detail":"'incident' is not an import set table (a table extending sys_import_set_row)"},"#
                + #""status":"failure"}"#)
        let noRecords = try await harness.send(
            "POST", "/api/now/import/u_incident_import/insertMultiple", body: #"{"rows":[]}"#)
        #expect(
            Harness.text(noRecords)
                == #"{"error":{"message":"Invalid records","detail":"give 'records', an array of objects, one per row"},"#
                + #""status":"failure"}"#)
        let notJSON = try await harness.send(
            "POST", "/api/now/import/u_incident_import", headers: [("Authorization", Harness.adminAuth)],
            rawBody: Data("u_short_description=x".utf8))
        #expect(notJSON.statusCode == 400)
        let noRow = try await harness.send("GET", "/api/now/import/u_incident_import/\(String(repeating: "a", count: 32))")
        #expect(noRow.statusCode == 404)
        #expect(
            Harness.text(noRow)
                == #"{"error":{"message":"No Record found","#
                + #""detail":"Record doesn't exist or ACL restricts the record retrieval"},"status":"failure"}"#)
        let deleting = try await harness.send("DELETE", "/api/now/import/u_incident_import")
        #expect(deleting.statusCode == 405)
    }

    @Test func loadingTakesTheImportRoleAndTheTargetsWriteRole() async throws {
        let attack = try await AttackHarness()
        let row = #"{"u_correlation_id":"alert-7","u_short_description":"Fan failure"}"#
        let path = "/api/now/import/u_incident_import"
        #expect(try await attack.send(.anonymous, "POST", path, body: row).statusCode == 401)
        let refusal = #"{"error":{"message":"Operation Failed","#
            + #""detail":"ACL Exception Insert Failed due to security constraints"},"status":"failure"}"#
        for caller in [AttackHarness.Caller.joe, .itil] {
            let refused = try await attack.send(caller, "POST", path, body: row)
            #expect(refused.statusCode == 403)
            #expect(Harness.text(refused) == refusal)
        }
        // Given the import role, the employee loads the row, but incident refuses the transform's insert.
        let role = try await attack.send(
            .admin, "POST", "/api/now/table/sys_user_has_role",
            body: #"{"user":"\#(DemoData.sysID("sys_user", "joe.employee"))","#
                + #""role":"\#(DemoData.sysID("sys_user_role", "import_transformer"))"}"#)
        #expect(role.statusCode == 201)
        let failed = try await attack.send(.joe, "POST", path, body: row)
        #expect(failed.statusCode == 201)
        #expect(
            Harness.text(failed)
                == #"{"import_set":"ISET0010001","staging_table":"u_incident_import","result":[{"#
                + #""transform_map":"Incident import","table":"incident","status":"error","#
                + #""error_message":"Operation Failed: ACL Exception Insert Failed due to security constraints"}]}"#)
        let admin = try await attack.send(.admin, "POST", path, body: row)
        #expect(admin.statusCode == 201)
        #expect(Harness.text(admin).contains(#""status":"inserted""#))
    }
}
