import Foundation
import NowData
import Testing

@testable import LocalInstance

/// `PATCH /api/sn_chg_rest/change/{sys_id}/approvals`: the current user's requested approvals of a change
/// (`sysapproval_approver`) are approved or rejected, the change's `approval` follows all of them, and the user
/// without an approval, without the API's roles or without comments for a rejection is refused.
@Suite struct ChangeApprovalTests {
    static let base = ChangeManagementAPITests.base

    /// Asks `approver` to approve `change`, as the admin through the Table API.
    static func ask(_ attack: AttackHarness, _ approver: String, _ change: String) async throws {
        let approval = try await attack.send(
            .admin, "POST", "/api/now/table/sysapproval_approver",
            body: #"{"sysapproval":"\#(change)","approver":"\#(DemoData.sysID("sys_user", approver))","#
                + #""source_table":"change_request","document_id":"\#(change)"}"#)
        #expect(approval.statusCode == 201)
    }

    /// The states of the change's approvals and who last updated them, by approver (ITIL User before System
    /// Administrator).
    static func approvals(_ attack: AttackHarness, _ change: String) async throws -> String {
        Harness.text(
            try await attack.send(
                .admin, "GET", "/api/now/table/sysapproval_approver",
                query: [
                    ("sysparm_query", "sysapproval=\(change)^ORDERBYapprover"),
                    ("sysparm_fields", "approver.user_name,state,comments,sys_updated_by"),
                ]))
    }

    static func approval(_ response: NowHTTPResponse) throws -> String? {
        try JSONValue(json: response.body).value(at: "result.approval.value").string
    }

    @Test func theUsersApprovalsAreActedOnAndTheChangeFollowsThemAll() async throws {
        let attack = try await AttackHarness()
        let created = try await attack.send(
            .admin, "POST", "\(Self.base)/normal", body: #"{"short_description":"Patch the database"}"#)
        let change = try ChangeManagementAPITests.sysID(created)
        let path = "\(Self.base)/\(change)/approvals"
        try await Self.ask(attack, "itil", change)

        let none = try await attack.send(.admin, "PATCH", path, body: #"{"state":"approved"}"#)
        #expect(none.statusCode == 400)
        #expect(
            Harness.text(none)
                == ChangeManagementAPITests.error(
                    "No approval to act on", "admin has no requested approval of this change request"))
        try await Self.ask(attack, "admin", change)

        let employee = try await attack.send(.joe, "PATCH", path, body: #"{"state":"approved"}"#)
        #expect(employee.statusCode == 403)
        #expect(
            Harness.text(employee)
                == ChangeManagementAPITests.error(
                    "User Not Authorized",
                    "PATCH on the Change Management API needs one of the roles change_manager, itil, admin"))
        let maybe = try await attack.send(.itil, "PATCH", path, body: #"{"state":"maybe"}"#)
        #expect(
            Harness.text(maybe)
                == ChangeManagementAPITests.error("Invalid approval state", "give 'state': approved or rejected"))
        let bare = try await attack.send(.itil, "PATCH", path, body: #"{"state":"rejected"}"#)
        #expect(bare.statusCode == 400)
        #expect(
            Harness.text(bare)
                == ChangeManagementAPITests.error("Comments are required", "a rejection needs 'comments' saying why"))
        let missing = try await attack.send(
            .itil, "PATCH", "\(Self.base)/\(String(repeating: "0", count: 32))/approvals", body: #"{"state":"approved"}"#)
        #expect(missing.statusCode == 404)

        let approved = try await attack.send(.itil, "PATCH", path, body: #"{"state":"approved"}"#)
        #expect(approved.statusCode == 200)
        #expect(Harness.text(approved) == (try await ChangeManagementAPITests.pairs(attack.harness, "change_request", change)))
        #expect(try Self.approval(approved) == "requested")
        // The same request again: itil has no requested approval left.
        let again = try await attack.send(.itil, "PATCH", path, body: #"{"state":"approved"}"#)
        #expect(
            Harness.text(again)
                == ChangeManagementAPITests.error(
                    "No approval to act on", "itil has no requested approval of this change request"))

        let rejected = try await attack.send(
            .admin, "PATCH", path, body: #"{"state":"rejected","comments":"Not during the freeze"}"#)
        #expect(try Self.approval(rejected) == "rejected")
        let approvals = try await Self.approvals(attack, change)
        #expect(
            approvals
                == #"{"result":[{"approver.user_name":"itil","state":"approved","comments":"","sys_updated_by":"itil"},"#
                + #"{"approver.user_name":"admin","state":"rejected","comments":"Not during the freeze","#
                + #""sys_updated_by":"admin"}]}"#)

        let single = try ChangeManagementAPITests.sysID(
            try await attack.send(.itil, "POST", "\(Self.base)/normal", body: #"{"short_description":"Add RAM"}"#))
        try await Self.ask(attack, "itil", single)
        let alone = try await attack.send(.itil, "PATCH", "\(Self.base)/\(single)/approvals", body: #"{"state":"approved"}"#)
        #expect(try Self.approval(alone) == "approved")
    }

    @Test func aChangesApprovalFollowsTheStatesOfItsApprovals() {
        #expect(ChangeManagementAPIHandler.approval(of: ["approved", "requested"]) == "requested")
        #expect(ChangeManagementAPIHandler.approval(of: ["approved", "not_required", "cancelled"]) == "approved")
        #expect(ChangeManagementAPIHandler.approval(of: ["approved", "rejected"]) == "rejected")
        #expect(ChangeManagementAPIHandler.approval(of: ["cancelled"]) == "requested")
    }

    /// The approval engine runs on every write of a change, not only the Change Management API's: a Table API
    /// PATCH that moves a normal change into Assess asks its assignment group's manager, the same PATCH again asks
    /// no one, and a user without roles neither moves the change nor writes an approval, and reads only his own.
    @Test func aTableAPIMoveIntoAssessRequestsTheManagersApprovalOnce() async throws {
        let attack = try await AttackHarness()
        let group = DemoData.sysID("sys_user_group", "Database")
        let created = try await attack.send(
            .itil, "POST", "/api/now/table/change_request",
            body: #"{"type":"normal","short_description":"Add RAM","assignment_group":"\#(group)"}"#)
        #expect(created.statusCode == 201)
        let change = try #require(try JSONValue(json: created.body).value(at: "result.sys_id").string)
        let path = "/api/now/table/change_request/\(change)"
        let fields = [("sysparm_fields", "state,approval")]
        let moved = #"{"result":{"state":"-4","approval":"requested"}}"#
        let row =
            #"{"approver.user_name":"charlie.whitherspoon","state":"requested","source_table":"change_request","#
            + #""document_id":"\#(change)"}"#

        let assessed = try await attack.send(.itil, "PATCH", path, query: fields, body: #"{"state":"-4"}"#)
        #expect(assessed.statusCode == 200)
        #expect(Harness.text(assessed) == moved)
        #expect(try await ChangeScheduleTests.approvals(attack, change) == #"{"result":[\#(row)]}"#)
        let again = try await attack.send(.itil, "PATCH", path, query: fields, body: #"{"state":"-4"}"#)
        #expect(Harness.text(again) == moved)
        #expect(try await ChangeScheduleTests.approvals(attack, change) == #"{"result":[\#(row)]}"#)

        let refusal = { (verb: String) in
            #"{"error":{"message":"Operation Failed","detail":"ACL Exception \#(verb) Failed due to security "#
                + #"constraints"},"status":"failure"}"#
        }
        let move = try await attack.send(.joe, "PATCH", path, body: #"{"state":"-3"}"#)
        #expect(move.statusCode == 403)
        #expect(Harness.text(move) == refusal("Update"))
        let ask = try await attack.send(
            .joe, "POST", "/api/now/table/sysapproval_approver",
            body: #"{"sysapproval":"\#(change)","approver":"\#(DemoData.sysID("sys_user", "joe.employee"))"}"#)
        #expect(ask.statusCode == 403)
        #expect(Harness.text(ask) == refusal("Insert"))
        // Joe reads only the approvals asked of him: none of the change's, then the one the admin asks of him.
        let mine = [
            ("sysparm_query", "sysapproval=\(change)^ORDERBYapprover.user_name"),
            ("sysparm_fields", "approver.user_name,state"),
        ]
        let none = try await attack.send(.joe, "GET", "/api/now/table/sysapproval_approver", query: mine)
        #expect(Harness.text(none) == #"{"result":[]}"#)
        let managers = try #require(
            try JSONValue(json: try await attack.send(
                .admin, "GET", "/api/now/table/sysapproval_approver",
                query: [("sysparm_query", "sysapproval=\(change)"), ("sysparm_fields", "sys_id")]
            ).body).value(at: "result.0.sys_id").string)
        let hidden = try await attack.send(.joe, "GET", "/api/now/table/sysapproval_approver/\(managers)")
        #expect(hidden.statusCode == 404)
        #expect(
            Harness.text(hidden)
                == #"{"error":{"message":"No Record found","detail":"Record doesn't exist or ACL restricts the "#
                + #"record retrieval"},"status":"failure"}"#)
        try await Self.ask(attack, "joe.employee", change)
        let own = try await attack.send(.joe, "GET", "/api/now/table/sysapproval_approver", query: mine)
        #expect(Harness.text(own) == #"{"result":[{"approver.user_name":"joe.employee","state":"requested"}]}"#)
    }
}
