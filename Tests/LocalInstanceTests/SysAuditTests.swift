import Foundation
import NowData
import Testing

@testable import LocalInstance

/// The field-level history in `sys_audit`, read through the Table API: a creation, an update and a deletion, from
/// every route that writes; what a user without roles may read of it; secret fields recorded as changed, never with
/// their values; and no writes to it.
@Suite struct SysAuditTests {
    static let fields = "tablename,fieldname,oldvalue,newvalue,user,record_checkpoint,sys_created_on"

    /// The history of `sysID` as `caller` reads it, oldest write first, with ``fields``.
    static func history(_ attack: AttackHarness, _ sysID: String, as caller: AttackHarness.Caller = .admin)
        async throws -> String
    {
        Harness.text(
            try await attack.send(
                caller, "GET", "/api/now/table/sys_audit",
                query: [("sysparm_query", "documentkey=\(sysID)^ORDERBYinternal_checkpoint"), ("sysparm_fields", fields)]
            ))
    }

    @Test func aCreationAnUpdateAndADeletionAreRecordedFieldByField() async throws {
        let attack = try await AttackHarness()
        let created = try await attack.send(
            .admin, "POST", "/api/now/table/sys_user_group", body: #"{"name":"Audit Team","description":"first"}"#)
        let sysID = try AttackHarness.sysID(created)
        attack.harness.clock.advance(seconds: 60)
        let patched = try await attack.send(
            .admin, "PATCH", "/api/now/table/sys_user_group/\(sysID)",
            body: #"{"description":"second","name":"Audit Team"}"#)
        #expect(patched.statusCode == 200)
        attack.harness.clock.advance(seconds: 60)
        let deleted = try await attack.send(.admin, "DELETE", "/api/now/table/sys_user_group/\(sysID)")
        #expect(deleted.statusCode == 204)

        let row = { (field: String, old: String, new: String, checkpoint: Int, time: String) in
            #"{"tablename":"sys_user_group","fieldname":"\#(field)","oldvalue":"\#(old)","newvalue":"\#(new)","#
                + #""user":"admin","record_checkpoint":"\#(checkpoint)","sys_created_on":"2026-11-30 \#(time)"}"#
        }
        #expect(
            try await Self.history(attack, sysID)
                == #"{"result":["#
                + [
                    row("name", "", "Audit Team", 0, "09:00:00"), row("description", "", "first", 0, "09:00:00"),
                    row("active", "", "true", 0, "09:00:00"), row("exclude_manager", "", "false", 0, "09:00:00"),
                    row("include_members", "", "false", 0, "09:00:00"),
                    row("description", "first", "second", 1, "09:01:00"),
                    row("DELETED", "DELETED", "DELETED", -1, "09:02:00"),
                ].joined(separator: ",") + "]}")
    }

    @Test func everyRouteThatWritesIsRecorded() async throws {
        let attack = try await AttackHarness()
        let incident = try #require(
            try JSONValue(
                json: try await attack.send(
                    .admin, "GET", "/api/now/table/incident",
                    query: [("sysparm_query", "number=INC0010002"), ("sysparm_fields", "sys_id")]
                ).body
            ).value(at: "result.0.sys_id").string)
        let batch =
            #"{"batch_request_id":"1","rest_requests":[{"id":"1","method":"PATCH","url":"/api/now/table/incident/"#
            + incident + #"","headers":[{"name":"Content-Type","value":"application/json"}],"body":""#
            + Data(#"{"urgency":"3"}"#.utf8).base64EncodedString() + #""}]}"#
        #expect(try await attack.send(.admin, "POST", "/api/now/v1/batch", body: batch).statusCode == 200)
        let jsonv2 = try await attack.send(
            .admin, "POST", "/incident.do",
            query: [("JSONv2", ""), ("sysparm_action", "update"), ("sysparm_query", "sys_id=\(incident)")],
            body: #"{"short_description":"From JSONv2"}"#)
        #expect(jsonv2.statusCode == 200)
        let imported = try await attack.send(
            .admin, "POST", "/api/now/import/u_incident_import",
            body: #"{"u_correlation_id":"audit-1","u_short_description":"Imported"}"#)
        #expect(imported.statusCode == 201)
        let importedID = try #require(try JSONValue(json: imported.body).value(at: "result.0.sys_id").string)

        let updates = Harness.text(
            try await attack.send(
                .admin, "GET", "/api/now/table/sys_audit",
                query: [
                    ("sysparm_query", "documentkey=\(incident)^ORDERBYinternal_checkpoint"),
                    ("sysparm_fields", "fieldname,oldvalue,newvalue,record_checkpoint"),
                ]))
        #expect(
            updates
                == #"{"result":[{"fieldname":"urgency","oldvalue":"1","newvalue":"3","record_checkpoint":"3"},"#
                + #"{"fieldname":"priority","oldvalue":"2","newvalue":"4","record_checkpoint":"3"},"#
                + #"{"fieldname":"short_description","oldvalue":"Unable to connect to VPN","#
                + #""newvalue":"From JSONv2","record_checkpoint":"4"}]}"#)
        let creation = try JSONValue(
            json: try await attack.send(
                .admin, "GET", "/api/now/table/sys_audit",
                query: [("sysparm_query", "documentkey=\(importedID)^fieldname=short_description")]
            ).body)
        #expect(try creation.value(at: "result.0.newvalue").string == "Imported")
        #expect(try creation.value(at: "result.0.oldvalue").string == "")
    }

    @Test func aUserWithoutRolesReadsOnlyTheHistoryOfTablesTheyMayRead() async throws {
        let attack = try await AttackHarness()
        let application = try AttackHarness.sysID(
            try await attack.send(
                .admin, "POST", "/api/now/table/oauth_entity", body: #"{"name":"Audited app","client_id":"audited"}"#))
        let group = try AttackHarness.sysID(
            try await attack.send(.admin, "POST", "/api/now/table/sys_user_group", body: #"{"name":"Seen Team"}"#))

        #expect(try await Self.history(attack, application, as: .joe) == #"{"result":[]}"#)
        #expect(try await Self.history(attack, application).contains(#""fieldname":"client_id""#))
        let hidden = try await attack.send(
            .joe, "GET", "/api/now/table/sys_audit",
            query: [("sysparm_query", "tablename=oauth_entity"), ("sysparm_fields", "sys_id")])
        #expect(Harness.text(hidden) == #"{"result":[]}"#)
        #expect(hidden.headers.value(named: "X-Total-Count") == "0")
        let one = try #require(
            try JSONValue(
                json: try await attack.send(
                    .admin, "GET", "/api/now/table/sys_audit",
                    query: [("sysparm_query", "documentkey=\(application)"), ("sysparm_fields", "sys_id")]
                ).body
            ).value(at: "result.0.sys_id").string)
        let read = try await attack.send(.joe, "GET", "/api/now/table/sys_audit/\(one)")
        #expect(read.statusCode == 404)
        let counted = try await attack.send(
            .joe, "GET", "/api/now/stats/sys_audit",
            query: [("sysparm_query", "tablename=oauth_entity"), ("sysparm_count", "true")])
        #expect(Harness.text(counted) == #"{"result":{"stats":{"count":"0"}}}"#)

        #expect(
            try await Self.history(attack, group, as: .joe)
                == #"{"result":[{"tablename":"sys_user_group","fieldname":"name","oldvalue":"","newvalue":"Seen Team","#
                + #""user":"admin","record_checkpoint":"0","sys_created_on":"2026-11-30 09:00:00"},"#
                + #"{"tablename":"sys_user_group","fieldname":"active","oldvalue":"","newvalue":"true","user":"admin","#
                + #""record_checkpoint":"0","sys_created_on":"2026-11-30 09:00:00"},"#
                + #"{"tablename":"sys_user_group","fieldname":"exclude_manager","oldvalue":"","newvalue":"false","#
                + #""user":"admin","record_checkpoint":"0","sys_created_on":"2026-11-30 09:00:00"},"#
                + #"{"tablename":"sys_user_group","fieldname":"include_members","oldvalue":"","newvalue":"false","#
                + #""user":"admin","record_checkpoint":"0","sys_created_on":"2026-11-30 09:00:00"}]}"#)
    }

    @Test func aSecretFieldIsRecordedAsChangedWithoutItsValueInAnyEncoding() async throws {
        let attack = try await AttackHarness()
        let secret = "Audit-Secret-4711"
        let application = try AttackHarness.sysID(
            try await attack.send(
                .admin, "POST", "/api/now/table/oauth_entity",
                body: #"{"name":"Secret app","client_id":"secret-app","client_secret":"\#(secret)"}"#))
        let changed = try await attack.send(
            .admin, "PATCH", "/api/now/table/oauth_entity/\(application)",
            body: #"{"client_secret":"\#(secret)-2"}"#)
        #expect(changed.statusCode == 200)
        let joe = DemoData.sysID("sys_user", "joe.employee")

        let secrets = try await attack.send(
            .admin, "GET", "/api/now/table/sys_audit",
            query: [
                ("sysparm_query", "fieldnameINclient_secret,user_password^ORDERBYinternal_checkpoint"),
                ("sysparm_fields", "tablename,documentkey,fieldname,oldvalue,newvalue,record_checkpoint"),
            ])
        let row = { (table: String, sysID: String, field: String, checkpoint: Int) in
            #"{"tablename":"\#(table)","documentkey":"\#(sysID)","fieldname":"\#(field)","oldvalue":"","#
                + #""newvalue":"","record_checkpoint":"\#(checkpoint)"}"#
        }
        #expect(
            Harness.text(secrets)
                == #"{"result":["#
                + [
                    row("sys_user", joe, "user_password", 1),
                    row("sys_user", DemoData.sysID("sys_user", "itil"), "user_password", 1),
                    row("oauth_entity", application, "client_secret", 0),
                    row("oauth_entity", application, "client_secret", 1),
                ].joined(separator: ",") + "]}")

        let everything = Harness.text(
            try await attack.send(
                .admin, "GET", "/api/now/table/sys_audit", query: [("sysparm_display_value", "all")]))
        let hash = try attack.instance.database.read { db in
            try attack.instance.store.fetch(TableDictionary.oauthEntity, sysID: application, db)?["client_secret"]
        }
        for value in [secret, "\(secret)-2", AttackHarness.joePassword] {
            for encoded in [
                value, Data(value.utf8).base64EncodedString(), Data(value.utf8).map { String(format: "%02x", $0) }.joined(),
                value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? value,
            ] {
                #expect(!everything.contains(encoded))
            }
        }
        #expect(!everything.contains(try #require(hash)))
    }

    @Test func noOneWritesTheHistory() async throws {
        let attack = try await AttackHarness()
        let refusal =
            #"{"error":{"message":"The field history is read-only","detail":"sys_audit is written by the instance: "#
            + #"one record per field that a creation sets or an update changes, and one per deletion"},"#
            + #""status":"failure"}"#
        let any = try #require(
            try JSONValue(
                json: try await attack.send(
                    .admin, "GET", "/api/now/table/sys_audit", query: [("sysparm_limit", "1")]
                ).body
            ).value(at: "result.0.sys_id").string)
        for (method, path, body) in [
            ("POST", "/api/now/table/sys_audit", #"{"fieldname":"forged"}"#),
            ("PATCH", "/api/now/table/sys_audit/\(any)", #"{"newvalue":"forged"}"#),
            ("DELETE", "/api/now/table/sys_audit/\(any)", nil),
        ] {
            let response = try await attack.send(.admin, method, path, body: body)
            #expect(response.statusCode == 403)
            #expect(Harness.text(response) == refusal)
        }
    }
}
