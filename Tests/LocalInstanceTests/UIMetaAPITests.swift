import Foundation
import NowData
import Testing

@testable import LocalInstance

/// `GET /api/now/ui/meta/{table}`: a table's columns from the dictionary (whole for a small table, the parts
/// clients read for incident and sys_user), the same answer twice, the errors, and the table's read role.
@Suite struct UIMetaAPITests {
    @Test func aTablesColumnsAreItsDictionary() async throws {
        let attack = try await AttackHarness()
        let meta = try await attack.send(.admin, "GET", "/api/now/ui/meta/sys_multi_import_set")
        #expect(meta.statusCode == 200)
        func column(_ name: String, _ label: String, _ type: String, length: Int? = nil) -> String {
            #""\#(name)":{"name":"\#(name)","label":"\#(label)","type":"\#(type)","mandatory":false"#
                + (length.map { #","max_length":\#($0)"# } ?? "") + "}"
        }
        let columns = [
            column("table_name", "Import set table", "string"), column("sys_id", "Sys ID", "GUID", length: 32),
            column("sys_created_on", "Created", "glide_date_time"), column("sys_created_by", "Created by", "string"),
            column("sys_updated_on", "Updated", "glide_date_time"), column("sys_updated_by", "Updated by", "string"),
            column("sys_mod_count", "Updates", "integer"), column("sys_class_name", "Class", "sys_class_name", length: 80),
        ]
        #expect(
            Harness.text(meta)
                == #"{"result":{"name":"sys_multi_import_set","label":"Multi Import Set","columns":{"#
                + columns.joined(separator: ",") + "}}}")
        let again = try await attack.send(.admin, "GET", "/api/now/v1/ui/meta/sys_multi_import_set")
        #expect(again.body == meta.body)

        let incident = try JSONValue(json: try await attack.send(.itil, "GET", "/api/now/ui/meta/incident").body)
        #expect(try incident.value(at: "result.label").string == "Incident")
        #expect(
            String(decoding: try incident.value(at: "result.columns.caller_id").jsonData(), as: UTF8.self)
                == #"{"name":"caller_id","label":"Caller","type":"reference","mandatory":false,"max_length":32,"#
                + #""reference":"sys_user"}"#)
        #expect(
            String(decoding: try incident.value(at: "result.columns.priority.choices.0").jsonData(), as: UTF8.self)
                == #"{"label":"1 - Critical","value":"1"}"#)
        let users = try JSONValue(json: try await attack.send(.joe, "GET", "/api/now/ui/meta/sys_user").body)
        #expect(
            String(decoding: try users.value(at: "result.columns.user_password").jsonData(), as: UTF8.self)
                == #"{"name":"user_password","label":"Password","type":"password2","mandatory":false}"#)
    }

    @Test func theErrorsAndTheReadRole() async throws {
        let attack = try await AttackHarness()
        let unknown = try await attack.send(.admin, "GET", "/api/now/ui/meta/no_such_table")
        #expect(unknown.statusCode == 400)
        #expect(
            Harness.text(unknown)
                == #"{"error":{"message":"Invalid table no_such_table","detail":null},"status":"failure"}"#)
        let posted = try await attack.send(.admin, "POST", "/api/now/ui/meta/incident", body: "{}")
        #expect(posted.statusCode == 405)
        #expect(
            Harness.text(posted)
                == #"{"error":{"message":"Method not Supported","detail":"POST method not supported for API"},"#
                + #""status":"failure"}"#)
        let refused = try await attack.send(.joe, "GET", "/api/now/ui/meta/sys_api_key")
        #expect(refused.statusCode == 403)
        #expect(
            Harness.text(refused)
                == #"{"error":{"message":"Operation Failed","detail":"ACL Exception Read Failed due to security "#
                + #"constraints"},"status":"failure"}"#)
        let anonymous = try await attack.send(.anonymous, "GET", "/api/now/ui/meta/incident")
        #expect(anonymous.statusCode == 401)
        #expect(Harness.text(anonymous) == AttackHarness.notAuthenticated)
    }
}
