import Foundation
import NowData
import Testing

@testable import LocalInstance

@Suite struct TableWriteTests {
    let harness: Harness

    init() throws {
        harness = try Harness()
    }

    @Test func createAnswers201WithLocationAndDefaults() async throws {
        let response = try await harness.send(
            "POST", "/api/now/table/incident", body: #"{"short_description":"Disk full","impact":"1","urgency":"1"}"#)
        #expect(response.statusCode == 201)
        let record = try Harness.result(response)
        let sysID = try #require(record["sys_id"] as? String)
        #expect(response.headers["Location"] == "http://localhost/api/now/table/incident/\(sysID)")
        #expect(record["number"] as? String == "INC0010061")
        #expect(record["priority"] as? String == "1")
        #expect(record["category"] as? String == "inquiry")
        #expect(record["opened_at"] as? String == "2026-11-30 09:00:00")
        let admin = DemoData.sysID("sys_user", "admin")
        #expect(
            record["opened_by"] as? [String: String]
                == ["link": "http://localhost/api/now/table/sys_user/\(admin)", "value": admin])
    }

    @Test func clientSuppliedSysIDAndDuplicateRefused() async throws {
        let sysID = "0123456789abcdef0123456789abcdef"
        let body = #"{"sys_id":"\#(sysID)","short_description":"Given id"}"#
        let created = try await harness.send("POST", "/api/now/table/incident", body: body)
        #expect(try Harness.result(created)["sys_id"] as? String == sysID)
        let duplicate = try await harness.send("POST", "/api/now/table/incident", body: body)
        #expect(duplicate.statusCode == 403)
        #expect(
            Harness.text(duplicate)
                == #"{"error":{"message":"Operation Failed","detail":"Error during insert of incident (INC0010062)"},"status":"failure"}"#
        )
    }

    /// A client that gives its own sys_id reads the record back by it, so one the instance would not keep is
    /// refused rather than replaced; nothing is created. An empty one asks the instance to assign one.
    @Test(arguments: ["12345", "0123456789abcdef0123456789abcdeg", "0123456789ABCDEF0123456789ABCDEG"])
    func malformedClientSysIDIsRefused(sysID: String) async throws {
        let response = try await harness.send(
            "POST", "/api/now/table/incident", body: #"{"sys_id":"\#(sysID)","short_description":"Given id"}"#)
        #expect(response.statusCode == 400)
        #expect(
            Harness.text(response)
                == #"{"error":{"message":"Invalid sys_id","detail":"sys_id '\#(sysID)' is not 32 hexadecimal digits"},"status":"failure"}"#
        )
        let list = try await harness.send(
            "GET", "/api/now/table/incident", query: [("sysparm_query", "short_description=Given id")])
        #expect(try Harness.results(list).isEmpty)
        let unset = try await harness.send(
            "POST", "/api/now/table/incident", body: #"{"sys_id":"","short_description":"Given id"}"#)
        #expect(unset.statusCode == 201)
        #expect((try Harness.result(unset)["sys_id"] as? String)?.utf8.count == 32)
    }

    @Test func unknownFieldsAndSystemFieldsAreIgnored() async throws {
        let response = try await harness.send(
            "POST", "/api/now/table/problem",
            body: #"{"short_description":"Leak","u_unknown":"x","sys_created_by":"mallory","sys_mod_count":"7"}"#)
        let record = try Harness.result(response)
        #expect(record["u_unknown"] == nil)
        #expect(record["sys_created_by"] as? String == "admin")
        #expect(record["sys_mod_count"] as? String == "0")
        #expect(record["number"] as? String == "PRB0040011")
        #expect(record["state"] as? String == "101")
    }

    @Test func invalidTypedValueIsIgnoredAndLogged() async throws {
        let response = try await harness.send(
            "POST", "/api/now/table/cmdb_ci_server",
            body: #"{"name":"box","cpu_count":"abc","ram":2048,"virtual":true}"#)
        let record = try Harness.result(response)
        #expect(record["cpu_count"] as? String == "")
        #expect(record["ram"] as? String == "2048")
        #expect(record["virtual"] as? String == "true")
        #expect(
            harness.log.all == ["local instance: cmdb_ci_server: ignored value 'abc' of cpu_count: not a valid integer"]
        )
    }

    @Test func inputDisplayValueResolvesReferencesAndChoices() async throws {
        let response = try await harness.send(
            "POST", "/api/now/table/incident", query: [("sysparm_input_display_value", "TRUE")],
            body: #"{"caller_id":"Abel Tuter","state":"In Progress","assignment_group":"Network"}"#)
        let record = try Harness.result(response)
        #expect((record["caller_id"] as? [String: String])?["value"] == DemoData.sysID("sys_user", "abel.tuter"))
        #expect(
            (record["assignment_group"] as? [String: String])?["value"] == DemoData.sysID("sys_user_group", "Network"))
        #expect(record["state"] as? String == "2")
    }

    @Test func suppressAutoSysFieldLetsTheClientWriteSystemFields() async throws {
        let response = try await harness.send(
            "POST", "/api/now/table/incident", query: [("sysparm_suppress_auto_sys_field", "true")],
            body: #"{"short_description":"Migrated","sys_created_on":"2020-01-02 03:04:05","sys_created_by":"legacy"}"#)
        let record = try Harness.result(response)
        #expect(record["sys_created_on"] as? String == "2020-01-02 03:04:05")
        #expect(record["sys_created_by"] as? String == "legacy")
        #expect(record["sys_updated_on"] as? String == "")
        let sysID = try #require(record["sys_id"] as? String)
        let updated = try await harness.send(
            "PATCH", "/api/now/table/incident/\(sysID)", query: [("sysparm_suppress_auto_sys_field", "true")],
            body: #"{"short_description":"Migrated again"}"#)
        #expect(try Harness.result(updated)["sys_mod_count"] as? String == "0")
    }

    @Test func putAndPatchUpdateOnlyTheFieldsSentAndCountChanges() async throws {
        let sysID = DemoData.sysID("incident", "INC0")
        harness.clock.advance(seconds: 3600)
        let put = try await harness.send("PUT", "/api/now/table/incident/\(sysID)", body: #"{"urgency":"3"}"#)
        #expect(put.statusCode == 200)
        let first = try Harness.result(put)
        #expect(first["short_description"] as? String == "Email server is down")
        #expect(first["urgency"] as? String == "3")
        #expect(first["priority"] as? String == "3")
        #expect(first["sys_mod_count"] as? String == "2")
        #expect(first["sys_updated_on"] as? String == "2026-11-30 10:00:00")
        let same = try await harness.send("PATCH", "/api/now/table/incident/\(sysID)", body: #"{"urgency":"3"}"#)
        #expect(try Harness.result(same)["sys_mod_count"] as? String == "2")
        let fields = try await harness.send(
            "PATCH", "/api/now/table/incident/\(sysID)", query: [("sysparm_fields", "state,sys_mod_count")],
            body: #"{"state":"6"}"#)
        #expect(Harness.text(fields) == #"{"result":{"state":"6","sys_mod_count":"3"}}"#)
    }

    @Test func writesToMissingRecordsAnswer404() async throws {
        let update = try await harness.send("PATCH", "/api/now/table/incident/nope", body: #"{"state":"2"}"#)
        #expect(update.statusCode == 404)
        let delete = try await harness.send("DELETE", "/api/now/table/incident/nope")
        #expect(delete.statusCode == 404)
        #expect(Harness.text(delete) == Harness.text(update))
    }

    /// The platform keeps a caller's upper-case sys_id as sent (PySNC's `set_new_guid_value` relies on it).
    @Test func upperCaseClientSysIDIsStoredAsSent() async throws {
        let sysID = "AAAABBBBCCCCDDDDEEEEFFFF00001111"
        let created = try await harness.send(
            "POST", "/api/now/table/problem", query: [("sysparm_fields", "sys_id,number,short_description")],
            body: #"{"sys_id":"\#(sysID)","short_description":"Given id"}"#)
        #expect(created.statusCode == 201)
        let expected = #"{"result":{"sys_id":"\#(sysID)","number":"PRB0040011","short_description":"Given id"}}"#
        #expect(Harness.text(created) == expected)
        let read = try await harness.send(
            "GET", "/api/now/table/problem/\(sysID)", query: [("sysparm_fields", "sys_id,number,short_description")])
        #expect(Harness.text(read) == expected)
        let deleted = try await harness.send("DELETE", "/api/now/table/problem/\(sysID)")
        #expect(deleted.statusCode == 204)
    }

    /// A POST with no body and no Content-Type creates a record of defaults, as on the platform.
    @Test func emptyPostCreatesARecordOfDefaults() async throws {
        let response = try await harness.send(
            "POST", "/api/now/table/problem",
            query: [("sysparm_fields", "number,short_description,state,active,priority,opened_by")],
            headers: [("Authorization", Harness.adminAuth)])
        #expect(response.statusCode == 201)
        let admin = DemoData.sysID("sys_user", "admin")
        #expect(
            Harness.text(response)
                == #"{"result":{"number":"PRB0040011","short_description":"","state":"101","active":"true","#
                + #""priority":"5","opened_by":{"link":"http://localhost/api/now/table/sys_user/\#(admin)","#
                + #""value":"\#(admin)"}}}"#)
        let patch = try await harness.send(
            "PATCH", "/api/now/table/problem/\(DemoData.sysID("problem", "PRB0"))",
            headers: [("Authorization", Harness.adminAuth)])
        #expect(patch.statusCode == 400)
        #expect(
            Harness.text(patch)
                == #"{"error":{"message":"Exception while reading request","detail":"Content-Type header is missing; send application/json"},"status":"failure"}"#
        )
    }

    @Test func badBodiesAndContentTypes() async throws {
        let invalid = try await harness.send("POST", "/api/now/table/incident", body: "{not json")
        #expect(invalid.statusCode == 400)
        #expect(
            Harness.text(invalid)
                == #"{"error":{"message":"Exception while reading request","detail":"The payload is not valid JSON."},"status":"failure"}"#
        )
        let missing = try await harness.send(
            "POST", "/api/now/table/incident", body: "{}", headers: [("Authorization", Harness.adminAuth)])
        #expect(missing.statusCode == 400)
        #expect(
            Harness.text(missing)
                == #"{"error":{"message":"Exception while reading request","detail":"Content-Type header is missing; send application/json"},"status":"failure"}"#
        )
        let text = try await harness.send(
            "POST", "/api/now/table/incident", body: "{}",
            headers: [("Authorization", Harness.adminAuth), ("Content-Type", "text/plain")])
        #expect(text.statusCode == 415)
        #expect(
            Harness.text(text)
                == #"{"error":{"message":"Unsupported Media Type","detail":"Content-Type 'text/plain' is not supported; send application/json"},"status":"failure"}"#
        )
    }

    /// A body that is not JSON, or not an object (or an array whose first element is one), is refused whole:
    /// nothing is written.
    @Test(arguments: [
        "", "  ", "{not json", #"{"short_description":"Half",}"#, #"{"short_description":"#,
        #"{"short_description":"Half"} trailing"#, #"{"short_description":"Half"#, #"{'short_description':'Half'}"#,
        #"{"short_description":"Half\x"}"#, #"{"short_description":"Half","urgency":01}"#, #""Half""#, "42", "true",
        "null", "[]", #"[1,{"short_description":"Half"}]"#, #"[[{"short_description":"Half"}]]"#,
    ])
    func malformedOrNonObjectBodiesAnswer400(body: String) async throws {
        let error =
            #"{"error":{"message":"Exception while reading request","detail":"The payload is not valid JSON."},"status":"failure"}"#
        let created = try await harness.send("POST", "/api/now/table/incident", body: body)
        #expect(created.statusCode == 400)
        #expect(Harness.text(created) == error)
        let sysID = DemoData.sysID("incident", "INC0")
        let patched = try await harness.send("PATCH", "/api/now/table/incident/\(sysID)", body: body)
        #expect(patched.statusCode == 400)
        #expect(Harness.text(patched) == error)
        let list = try await harness.send(
            "GET", "/api/now/table/incident", query: [("sysparm_query", "short_description=Half")])
        #expect(Harness.text(list) == #"{"result":[]}"#)
    }

    @Test func arrayBodyCreatesOnlyTheFirstRecord() async throws {
        let response = try await harness.send(
            "POST", "/api/now/table/sys_user_group", body: #"[{"name":"First"},{"name":"Second"}]"#)
        #expect(try Harness.result(response)["name"] as? String == "First")
        let second = try await harness.send("GET", "/api/now/table/sys_user_group", query: [("name", "Second")])
        #expect(Harness.text(second) == #"{"result":[]}"#)
    }

    @Test func noResponseBodyHeader() async throws {
        let response = try await harness.send(
            "POST", "/api/now/table/task", body: #"{"short_description":"Quiet"}"#,
            headers: [
                ("Authorization", Harness.adminAuth), ("Content-Type", "application/json; charset=utf-8"),
                ("X-no-response-body", "true"),
            ])
        #expect(response.statusCode == 201)
        #expect(response.body.isEmpty)
    }

    @Test func passwordsAreStoredHashedAndAnsweredMasked() async throws {
        let response = try await harness.send(
            "POST", "/api/now/table/sys_user",
            body: #"{"user_name":"new.user","name":"New User","user_password":"pa55"}"#)
        let record = try Harness.result(response)
        #expect(record["user_password"] as? String == "********")
        let sysID = try #require(record["sys_id"] as? String)
        let stored = try harness.instance.database.read { db in
            try harness.instance.store.fetch(TableDictionary.sysUser, sysID: sysID, db)?["user_password"]
        }
        let hash = try #require(stored)
        #expect(hash.hasPrefix("pbkdf2-sha256$\(Harness.passwordIterations)$"))
        #expect(!hash.contains("pa55"))
        #expect(PasswordHash.verify("pa55", against: hash))
        let itil = DemoData.sysID("sys_user_role", "itil")
        _ = try await harness.send(
            "POST", "/api/now/table/sys_user_has_role", body: #"{"user":"\#(sysID)","role":"\#(itil)"}"#)
        let auth = "Basic " + Data("new.user:pa55".utf8).base64EncodedString()
        let asUser = try await harness.send(
            "POST", "/api/now/table/incident", body: #"{"short_description":"Mine"}"#,
            headers: [("Authorization", auth), ("Content-Type", "application/json")])
        #expect(try Harness.result(asUser)["sys_created_by"] as? String == "new.user")
    }

    @Test func closingAnIncidentStampsResolutionAndDeactivatesIt() async throws {
        let created = try Harness.result(
            try await harness.send("POST", "/api/now/table/incident", body: #"{"short_description":"Flaky"}"#))
        let sysID = try #require(created["sys_id"] as? String)
        harness.clock.advance(seconds: 300)
        let fields = ("sysparm_fields", "state,active,resolved_at,closed_at,closed_by")
        let closed = try await harness.send(
            "PATCH", "/api/now/table/incident/\(sysID)", query: [fields, ("sysparm_exclude_reference_link", "true")],
            body: #"{"state":"7"}"#)
        let admin = DemoData.sysID("sys_user", "admin")
        #expect(
            Harness.text(closed)
                == #"{"result":{"state":"7","active":"false","resolved_at":"2026-11-30 09:05:00","closed_at":"2026-11-30 09:05:00","closed_by":"\#(admin)"}}"#
        )
        harness.clock.advance(seconds: 300)
        let reopened = try await harness.send(
            "PATCH", "/api/now/table/incident/\(sysID)", query: [fields, ("sysparm_exclude_reference_link", "true")],
            body: #"{"state":"2"}"#)
        #expect(
            Harness.text(reopened)
                == #"{"result":{"state":"2","active":"true","resolved_at":"2026-11-30 09:05:00","closed_at":"2026-11-30 09:05:00","closed_by":"\#(admin)"}}"#
        )
    }
}
