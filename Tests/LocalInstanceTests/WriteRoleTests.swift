import Foundation
import NowData
import Testing

@testable import LocalInstance

/// Roles decide who writes: `itil` for the task tables and the CMDB, `user_admin` for users and groups, `admin`
/// for roles, business rules, choices and OAuth; `admin` and the configured administrator write everywhere.
@Suite struct WriteRoleTests {
    let harness: Harness

    init() async throws {
        harness = try Harness()
        for user in ["abel.tuter", "itil", "fred.luddy"] {
            _ = try await harness.send(
                "PATCH", "/api/now/table/sys_user/\(DemoData.sysID("sys_user", user))",
                body: #"{"user_password":"pw-\#(user)"}"#)
        }
    }

    private func send(
        _ user: String, _ method: String, _ path: String, body: String? = nil
    ) async throws -> NowHTTPResponse {
        var headers = [("Authorization", "Basic " + Data("\(user):pw-\(user)".utf8).base64EncodedString())]
        if body != nil { headers.append(("Content-Type", "application/json")) }
        return try await harness.send(method, path, body: body, headers: headers)
    }

    private static func refusal(_ verb: String) -> String {
        #"{"error":{"message":"Operation Failed","detail":"ACL Exception \#(verb) Failed due to security "#
            + #"constraints"},"status":"failure"}"#
    }

    @Test func aUserWithoutTheTablesRoleReadsButDoesNotWrite() async throws {
        #expect(try await send("abel.tuter", "GET", "/api/now/table/problem").statusCode == 200)
        let created = try await send("abel.tuter", "POST", "/api/now/table/incident", body: "{}")
        #expect(created.statusCode == 403)
        #expect(Harness.text(created) == Self.refusal("Insert"))
        let incident = DemoData.sysID("incident", "INC0")
        let updated = try await send(
            "abel.tuter", "PATCH", "/api/now/table/incident/\(incident)", body: #"{"state":"2"}"#)
        #expect(Harness.text(updated) == Self.refusal("Update"))
        let deleted = try await send("abel.tuter", "DELETE", "/api/now/table/incident/\(incident)")
        #expect(Harness.text(deleted) == Self.refusal("Delete"))
        #expect(try await send("abel.tuter", "POST", "/api/now/table/bsm_chart", body: "{}").statusCode == 201)
    }

    @Test func itilWritesTasksAndCIsButNotRolesOrRules() async throws {
        #expect(try await send("itil", "POST", "/api/now/table/incident", body: "{}").statusCode == 201)
        #expect(try await send("itil", "POST", "/api/now/table/problem_task", body: "{}").statusCode == 201)
        #expect(
            try await send("itil", "POST", "/api/now/table/cmdb_ci_linux_server", body: #"{"name":"x"}"#).statusCode
                == 201)
        let rule = try await send("itil", "POST", "/api/now/table/sys_script", body: #"{"name":"mine"}"#)
        #expect(Harness.text(rule) == Self.refusal("Insert"))
        let role = try await send("itil", "POST", "/api/now/table/sys_user_has_role", body: "{}")
        #expect(role.statusCode == 403)
    }

    @Test func anAdminWritesEverywhere() async throws {
        #expect(
            try await send("fred.luddy", "POST", "/api/now/table/sys_script", body: #"{"name":"fred's"}"#).statusCode
                == 201)
        #expect(
            try await send("fred.luddy", "POST", "/api/now/table/oauth_entity", body: #"{"name":"x"}"#).statusCode
                == 201)
    }
}
