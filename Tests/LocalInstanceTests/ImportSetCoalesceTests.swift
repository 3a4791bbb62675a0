import Foundation
import NowData
import Testing

@testable import LocalInstance

/// The Import Set API's coalesce lookup, attacked: it is a Table API read as the loading user, so a record the user
/// may not read is neither revealed nor overwritten by a row coalescing on it, a `^` in a coalesce value is a
/// literal character and never a join of the query, and the match ignores a string's case (the platform's default,
/// `coalesce_case_sensitive` false).
@Suite struct ImportSetCoalesceTests {
    /// A map of the incident staging table into `sys_api_key`, which only `admin` reads or writes, coalescing on
    /// the key's name: what a user with the import role alone could try to probe keys with.
    static let keyMap = TransformMap(
        name: "Key import", sourceTable: "u_incident_import", targetTable: "sys_api_key",
        fieldMap: [.init("u_correlation_id", "name", coalesce: true), .init("u_description", "user")])

    /// A map coalescing on a secret field, `sys_user.user_password`.
    static let passwordMap = TransformMap(
        name: "Password probe", sourceTable: "u_incident_import", targetTable: "sys_user",
        fieldMap: [.init("u_correlation_id", "user_password", coalesce: true), .init("u_description", "title")])

    /// Loads `row` into `u_incident_import` through `maps` as `user`, in process.
    static func load(
        _ row: String, maps: [TransformMap], as user: String, on instance: LocalInstance
    ) throws -> NowHTTPResponse {
        let request = NowHTTPRequest(
            method: "POST", path: "/api/now/import/u_incident_import",
            headers: HTTPHeaders([("Content-Type", "application/json")]), body: Data(row.utf8))
        return try ImportSetAPIHandler(tables: instance.handler, maps: maps).handle(
            request, route: .init(table: "u_incident_import"), as: instance.handler.policy.access(for: user))
    }

    /// Reads a staging row's outcome as `user` through `maps`, in process.
    static func read(_ sysID: String, maps: [TransformMap], as user: String, on instance: LocalInstance) throws
        -> NowHTTPResponse
    {
        let request = NowHTTPRequest(method: "GET", path: "/api/now/import/u_incident_import/\(sysID)")
        return try ImportSetAPIHandler(tables: instance.handler, maps: maps).handle(
            request, route: .init(table: "u_incident_import", sysID: sysID),
            as: instance.handler.policy.access(for: user))
    }

    /// Gives `joe.employee` the import role, and no other.
    static func grantImportRole(_ attack: AttackHarness) async throws {
        let role = try await attack.send(
            .admin, "POST", "/api/now/table/sys_user_has_role",
            body: #"{"user":"\#(DemoData.sysID("sys_user", "joe.employee"))","#
                + #""role":"\#(DemoData.sysID("sys_user_role", "import_transformer"))"}"#)
        #expect(role.statusCode == 201)
    }

    static func errorBody(_ set: String, map: String, table: String, message: String) -> String {
        #"{"import_set":"\#(set)","staging_table":"u_incident_import","result":[{"transform_map":"\#(map)","#
            + #""table":"\#(table)","status":"error","error_message":"\#(message)"}]}"#
    }

    @Test func aRecordTheImporterMayNotReadIsNeitherRevealedNorOverwritten() async throws {
        let attack = try await AttackHarness()
        try await Self.grantImportRole(attack)
        let key = try await attack.send(
            .admin, "POST", "/api/now/table/sys_api_key", body: #"{"name":"ci-deploy-key"}"#)
        #expect(key.statusCode == 201)
        let keyID = try AttackHarness.sysID(key)

        // Coalescing on the existing key and on a name no key has answer the same: the insert the user may not make.
        let refused = Self.errorBody(
            "ISET0010001", map: "Key import", table: "sys_api_key",
            message: "Operation Failed: ACL Exception Insert Failed due to security constraints")
        for name in ["ci-deploy-key", "no-such-key", "CI-DEPLOY-KEY"] {
            let loaded = try Self.load(
                #"{"u_correlation_id":"\#(name)","u_description":"joe.employee"}"#, maps: [Self.keyMap],
                as: "joe.employee", on: attack.instance)
            #expect(loaded.statusCode == 201)
            #expect(Harness.text(loaded) == refused)
        }
        let unchanged = try Harness.result(
            try await attack.send(
                .admin, "GET", "/api/now/table/sys_api_key/\(keyID)",
                query: [("sysparm_fields", "name,user"), ("sysparm_exclude_reference_link", "true")]))
        #expect(unchanged["name"] as? String == "ci-deploy-key")
        #expect(unchanged["user"] as? String == "")

        // The admin's row into the key is read back by the importer without the key's name.
        let admins = try Self.load(
            #"{"u_correlation_id":"ci-deploy-key","u_description":"admin"}"#, maps: [Self.keyMap], as: "admin",
            on: attack.instance)
        #expect(
            Harness.text(admins)
                == ImportSetAPITests.result(
                    "ISET0010001", "u_incident_import", map: "Key import", table: "sys_api_key", display: "name",
                    value: "ci-deploy-key", status: "updated", sysID: keyID))
        let rows = try Harness.results(
            try await attack.send(
                .joe, "GET", "/api/now/table/u_incident_import",
                query: [("sysparm_query", "sys_import_state=updated"), ("sysparm_fields", "sys_id")]))
        let rowID = try #require(rows.first?["sys_id"] as? String)
        #expect(
            Harness.text(try Self.read(rowID, maps: [Self.keyMap], as: "joe.employee", on: attack.instance))
                == ImportSetAPITests.result(
                    "ISET0010001", "u_incident_import", map: "Key import", table: "sys_api_key", display: "name",
                    value: "", status: "updated", sysID: keyID))
        #expect(
            Harness.text(try Self.read(rowID, maps: [Self.keyMap], as: "admin", on: attack.instance))
                == Harness.text(admins))
    }

    @Test func aSecretFieldIsNoCoalesceKey() async throws {
        let harness = try Harness()
        let probe = try Self.load(
            #"{"u_correlation_id":"secret","u_description":"guessed"}"#, maps: [Self.passwordMap], as: "admin",
            on: harness.instance)
        #expect(
            Harness.text(probe)
                == Self.errorBody(
                    "ISET0010001", map: "Password probe", table: "sys_user",
                    message: "Operation Failed: sys_user.user_password is a password field: no one reads it, as a "
                        + "value, a group or an aggregate"))
        let unknown = TransformMap(
            name: "Unknown field", sourceTable: "u_incident_import", targetTable: "incident",
            fieldMap: [.init("u_correlation_id", "u_nope", coalesce: true), .init("u_description", "description")])
        let nowhere = try Self.load(
            #"{"u_correlation_id":"x","u_description":"overwrite?"}"#, maps: [unknown], as: "admin",
            on: harness.instance)
        #expect(
            Harness.text(nowhere)
                == Self.errorBody(
                    "ISET0010001", map: "Unknown field", table: "incident",
                    message: "Invalid coalesce field: incident has no field 'u_nope' (transform map Unknown field)"))
        // No user's title was written.
        let titled = try Harness.results(
            try await harness.send("GET", "/api/now/table/sys_user", query: [("sysparm_query", "title=guessed")]))
        #expect(titled.isEmpty)
    }

    @Test func aCaretInACoalesceValueIsALiteralCharacter() async throws {
        let harness = try Harness()
        let path = "/api/now/import/u_incident_import"
        let first = try await harness.send(
            "POST", path, body: #"{"u_correlation_id":"alert-1","u_short_description":"Original"}"#)
        let original = try ImportSetAPITests.target(first)
        for value in [
            "nomatch^ORcorrelation_id=alert-1", "nomatch^NQcorrelation_id=alert-1", "alert-1^", "alert-1^EQ",
            "^ORDERBYnumber", "alert-1^ORcorrelation_idISNOTEMPTY",
        ] {
            let row = #"{"u_correlation_id":"\#(value)","u_short_description":"Injected"}"#
            let loaded = try await harness.send("POST", path, body: row)
            let status = try JSONValue(json: loaded.body).value(at: "result.0.status").string
            #expect(status == "inserted", "\(value)")
            let inserted = try ImportSetAPITests.target(loaded)
            #expect(inserted != original)
            // The same row again finds the record it made, by the value with its caret.
            let again = try await harness.send("POST", path, body: row)
            #expect(try JSONValue(json: again.body).value(at: "result.0.status").string == "ignored", "\(value)")
            #expect(try ImportSetAPITests.target(again) == inserted)
            let stored = try Harness.result(
                try await harness.send(
                    "GET", "/api/now/table/incident/\(inserted)", query: [("sysparm_fields", "correlation_id")]))
            #expect(stored["correlation_id"] as? String == value)
        }
        let kept = try Harness.result(
            try await harness.send(
                "GET", "/api/now/table/incident/\(original)", query: [("sysparm_fields", "short_description")]))
        #expect(kept["short_description"] as? String == "Original")
    }

    @Test func theMatchIgnoresCaseAsThePlatformsDefaultCoalesceDoes() async throws {
        let harness = try Harness()
        let path = "/api/now/import/u_incident_import"
        let first = try await harness.send(
            "POST", path, body: #"{"u_correlation_id":"Alert-77","u_short_description":"Fan failure"}"#)
        let sysID = try ImportSetAPITests.target(first)
        let number = try #require(try JSONValue(json: first.body).value(at: "result.0.display_value").string)
        #expect(number.hasPrefix("INC"))
        // The row finds the record whatever the case of its value, and writes its value as given.
        let upper = try await harness.send(
            "POST", path, body: #"{"u_correlation_id":"ALERT-77","u_short_description":"Fan failure"}"#)
        #expect(
            Harness.text(upper)
                == ImportSetAPITests.result(
                    "ISET0010001", "u_incident_import", map: "Incident import", table: "incident", display: "number",
                    value: number, status: "updated", sysID: sysID))
        let again = try await harness.send(
            "POST", path, body: #"{"u_correlation_id":"alert-77","u_short_description":"Fan failure"}"#)
        #expect(try JSONValue(json: again.body).value(at: "result.0.sys_id").string == sysID)
        let count = try Harness.results(
            try await harness.send(
                "GET", "/api/now/table/incident", query: [("sysparm_query", "correlation_idLIKEalert-77")]))
        #expect(count.count == 1)
        // A script in a coalesce value is the query's refusal, as in any Table API query: the row's error.
        let script = try await harness.send(
            "POST", path, body: #"{"u_correlation_id":"javascript:gs.getUserID()","u_short_description":"x"}"#)
        #expect(script.statusCode == 201)
        #expect(
            Harness.text(script)
                == Self.errorBody("ISET0010001", map: "Incident import", table: "incident", message: "Invalid query: encoded query condition "
                        + "'correlation_id=javascript:gs.getUserID()' has a javascript: value; the local instance does "
                        + "not run scripts"))
    }
}
