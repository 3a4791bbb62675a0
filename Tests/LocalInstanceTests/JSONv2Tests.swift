import Foundation
import NowData
import Testing

@testable import LocalInstance

/// The JSONv2 processor (`/{table}.do?JSONv2`) on the demo instance: each action against the Table API's own answer
/// for the same records, what a second identical request does, the errors of a whole request and of one record,
/// and who may do what (the Table API's access decision).
@Suite struct JSONv2Tests {
    /// A JSONv2 request as `caller`: `parameters` in the URL after `JSONv2`, a JSON `body` for a POST.
    static func send(
        _ attack: AttackHarness, _ method: String = "GET", as caller: AttackHarness.Caller = .admin,
        table: String = "incident", _ parameters: [(String, String)] = [], body: String? = nil
    ) async throws -> NowHTTPResponse {
        try await attack.send(caller, method, "/\(table).do", query: [("JSONv2", "")] + parameters, body: body)
    }

    /// The Table API's record, as JSONv2 renders it (values as text), with `extra` members.
    static func tableRecord(_ attack: AttackHarness, _ sysID: String, _ extra: JSONObject = [:]) async throws
        -> JSONValue
    {
        let response = try await attack.send(
            .admin, "GET", "/api/now/table/incident/\(sysID)", query: [("sysparm_exclude_reference_link", "true")])
        var record = try #require(try JSONValue(json: response.body)["result"]?.object)
        for (name, value) in extra { record[name] = value }
        return .object(record)
    }

    static func records(_ values: [JSONValue]) -> String {
        String(decoding: JSONValue.object(["records": .array(values)]).jsonData(), as: UTF8.self)
    }

    @Test func aRecordIsInsertedReadUpdatedAndDeleted() async throws {
        let attack = try await AttackHarness()
        let inserted = try await Self.send(
            attack, "POST", [("sysparm_action", "insert")],
            body: #"{"short_description":"Printer on fire","urgency":"2","caller_id":"\#(DemoData.sysID("sys_user", "abel.tuter"))"}"#)
        #expect(inserted.statusCode == 200)
        let sysID = try #require(try JSONValue(json: inserted.body).value(at: "records.0.sys_id").string)
        #expect(Harness.text(inserted) == Self.records([try await Self.tableRecord(attack, sysID, ["__status": "success"])]))

        // get, by sysparm_sys_id (the default action of a GET naming one), getRecords and getKeys by query.
        let record = try await Self.tableRecord(attack, sysID)
        let got = try await Self.send(attack, "GET", [("sysparm_sys_id", sysID)])
        #expect(Harness.text(got) == Self.records([record]))
        let listed = try await Self.send(
            attack, "GET", [("sysparm_action", "getRecords"), ("sysparm_query", "sys_id=\(sysID)")])
        #expect(Harness.text(listed) == Self.records([record]))
        let keys = try await Self.send(
            attack, "GET", [("sysparm_action", "getKeys"), ("sysparm_query", "short_description=Printer on fire")])
        #expect(Harness.text(keys) == Self.records([.string(sysID)]))

        // displayvalue=all: each reference's display value beside it.
        let shown = try await Self.send(attack, "GET", [("sysparm_sys_id", sysID), ("displayvalue", "all")])
        let shownRecord = try #require(try JSONValue(json: shown.body).value(at: "records.0").object)
        #expect(shownRecord["caller_id"]?.string == DemoData.sysID("sys_user", "abel.tuter"))
        #expect(shownRecord["dv_caller_id"]?.string == "Abel Tuter")
        #expect(shownRecord["dv_short_description"] == nil)
        #expect(shownRecord["short_description"]?.string == "Printer on fire")

        // update, as the Terraform provider sends it; the same update again changes nothing more.
        for _ in 1...2 {
            let updated = try await Self.send(
                attack, "POST", [("sysparm_action", "update"), ("sysparm_query", "sys_id=\(sysID)")],
                body: #"{"short_description":"Printer fixed"}"#)
            #expect(Harness.text(updated) == Self.records([try await Self.tableRecord(attack, sysID, ["__status": "success"])]))
        }

        // deleteRecord with no body, as the provider sends it; a second one fails that record.
        let before = try await Self.tableRecord(attack, sysID, ["__status": "success"])
        let deleted = try await Self.send(attack, "POST", [("sysparm_action", "deleteRecord"), ("sysparm_sys_id", sysID)])
        #expect(Harness.text(deleted) == Self.records([before]))
        let again = try await Self.send(attack, "POST", [("sysparm_action", "deleteRecord"), ("sysparm_sys_id", sysID)])
        #expect(
            Harness.text(again)
                == #"{"records":[{"sys_id":"\#(sysID)","__status":"failure","__error":{"message":"No Record found","#
                + #""reason":"Record doesn't exist or ACL restricts the record retrieval"}}]}"#)
        #expect(Harness.text(try await Self.send(attack, "GET", [("sysparm_sys_id", sysID)])) == #"{"records":[]}"#)
    }

    @Test func manyRecordsAreInsertedUpdatedAndDeletedByQuery() async throws {
        let attack = try await AttackHarness()
        let inserted = try await Self.send(
            attack, "POST", [("sysparm_action", "insertMultiple")],
            body: #"{"records":[{"short_description":"jsonv2 batch one"},{"short_description":"jsonv2 batch two"},7]}"#)
        let answer = try JSONValue(json: inserted.body)
        let first = try #require(answer.value(at: "records.0.sys_id").string)
        let second = try #require(answer.value(at: "records.1.sys_id").string)
        #expect(
            Harness.text(inserted)
                == Self.records([
                    try await Self.tableRecord(attack, first, ["__status": "success"]),
                    try await Self.tableRecord(attack, second, ["__status": "success"]),
                    ["__status": "failure", "__error": ["message": "Invalid record", "reason": "each record is a JSON object"]],
                ]))
        let updated = try await Self.send(
            attack, "POST", [("sysparm_action", "update"), ("sysparm_query", "short_descriptionSTARTSWITHjsonv2 batch^ORDERBYnumber")],
            body: #"{"urgency":"1"}"#)
        #expect(
            Harness.text(updated)
                == Self.records([
                    try await Self.tableRecord(attack, first, ["__status": "success"]),
                    try await Self.tableRecord(attack, second, ["__status": "success"]),
                ]))
        let deleted = try await Self.send(
            attack, "POST", [("sysparm_action", "deleteMultiple")],
            body: #"{"sysparm_query":"short_descriptionSTARTSWITHjsonv2 batch"}"#)
        #expect(try JSONValue(json: deleted.body).value(at: "records").array?.count == 2)
        let none = try await Self.send(
            attack, "POST", [("sysparm_action", "deleteMultiple")],
            body: #"{"sysparm_query":"short_descriptionSTARTSWITHjsonv2 batch"}"#)
        #expect(Harness.text(none) == #"{"records":[]}"#)
    }

    @Test func aWholeRequestsErrorsSayWhatIsWrong() async throws {
        let attack = try await AttackHarness()
        func error(_ message: String, _ reason: String?) -> String {
            #"{"__error":{"message":"\#(message)","reason":"# + (reason.map { #""\#($0)""# } ?? "null") + "}}"
        }
        let cases: [(String, String, [(String, String)], String?, Int, String)] = [
            ("POST", "incident", [("sysparm_action", "update")], "{}", 400, error("Cannot update with empty sysparm_query", nil)),
            ("POST", "incident", [("sysparm_action", "deleteMultiple")], nil, 400, error("Cannot delete with empty sysparm_query", nil)),
            ("POST", "incident", [("sysparm_action", "deleteRecord")], nil, 400, error("Cannot delete without sysparm_sys_id", nil)),
            ("GET", "incident", [("sysparm_action", "get")], nil, 400, error("Cannot get without sysparm_sys_id", nil)),
            (
                "GET", "incident", [("sysparm_action", "drop")], nil, 400,
                error(
                    "Invalid sysparm_action: drop",
                    "one of getRecords, get, getKeys, insert, insertMultiple, update, deleteRecord, deleteMultiple")
            ),
            ("GET", "incident", [("sysparm_action", "insert")], nil, 405, error("GET is not supported for sysparm_action insert", "reads are GET or POST, writes POST")),
            ("GET", "no_such_table", [], nil, 400, error("Invalid table no_such_table", nil)),
            ("POST", "incident", [("sysparm_action", "insert")], "[1]", 400, error("Invalid JSON", "the body of a JSONv2 POST is a JSON object")),
        ]
        for (method, table, parameters, body, status, expected) in cases {
            let response = try await Self.send(attack, method, table: table, parameters, body: body)
            #expect(response.statusCode == status, "\(parameters)")
            #expect(Harness.text(response) == expected)
        }
        // The body's sysparm_action wins over the URL's.
        let body = try await Self.send(
            attack, "POST", [("sysparm_action", "insert")], body: #"{"sysparm_action":"deleteMultiple"}"#)
        #expect(Harness.text(body) == error("Cannot delete with empty sysparm_query", nil))
    }

    @Test func theTableAPIsAccessDecisionApplies() async throws {
        let attack = try await AttackHarness()
        // No credentials: the API's 401, never the login page (the web views leave the request to the API).
        let anonymous = try await Self.send(attack, as: .anonymous)
        #expect(anonymous.statusCode == 401)
        #expect(Harness.text(anonymous) == AttackHarness.notAuthenticated)
        let request = NowHTTPRequest(
            method: "GET", path: "/incident.do", queryItems: [URLQueryItem(name: "JSONv2", value: nil)])
        #expect(WebInterface(instance: attack.instance).response(to: request) == nil)
        // Another site's page may not make a browser write through it.
        let forged = try await attack.send(
            .admin, "POST", "/incident.do", query: [("JSONv2", ""), ("sysparm_action", "insert")],
            body: #"{"short_description":"forged"}"#,
            headers: [("Host", "127.0.0.1:8080"), ("Origin", "https://evil.example")])
        #expect(forged.statusCode == 403)
        #expect(
            Harness.text(forged)
                == #"{"error":{"message":"Cross-site request refused","detail":"The request's Origin "#
                + #"'https://evil.example' is not this instance (127.0.0.1:8080): a write sent by another site's "#
                + #"page is refused"},"status":"failure"}"#)

        // A user without roles reads incidents (no read role) but may not write them.
        let some = try await attack.send(
            .admin, "GET", "/api/now/table/incident", query: [("sysparm_limit", "1"), ("sysparm_fields", "sys_id")])
        let incident = try #require(try JSONValue(json: some.body).value(at: "result.0.sys_id").string)
        for (action, verb) in [("insert", "Insert"), ("update", "Update"), ("deleteRecord", "Delete")] {
            let refused = try await Self.send(
                attack, "POST", as: .joe,
                [("sysparm_action", action), ("sysparm_sys_id", incident), ("sysparm_query", "sys_id=\(incident)")],
                body: #"{"short_description":"mine now"}"#)
            #expect(refused.statusCode == 200)
            let id = action == "insert" ? "" : #""sys_id":"\#(incident)","#
            #expect(
                Harness.text(refused)
                    == #"{"records":[{\#(id)"__status":"failure","__error":{"message":"Operation Failed","#
                    + #""reason":"ACL Exception \#(verb) Failed due to security constraints"}}]}"#, "\(action)")
        }
        // A table only admin reads: no record of it is there for the user.
        let keys = try await Self.send(attack, "GET", as: .joe, table: "sys_api_key", [("sysparm_action", "getKeys")])
        #expect(Harness.text(keys) == #"{"records":[]}"#)
        let admins = try await Self.send(attack, "GET", table: "sys_api_key", [("sysparm_action", "getKeys")])
        #expect(admins.statusCode == 200)
    }
}
