import Foundation
import NowData
import Testing

@testable import LocalInstance

/// The JSONv2 processor's `sysparm_view`: a `get` or `getRecords` answers only the fields of the table's form in
/// that view (`sys_ui_view`, `sys_ui_section`, `sys_ui_element`), dot-walks included; an unknown view, or one
/// without a section for the table, answers every field.
@Suite struct JSONv2ViewTests {
    /// Makes the view `name` with a section on `incident` whose elements are `elements` (name and type), in order.
    static func makeView(_ attack: AttackHarness, _ name: String, _ elements: [(String, String)]) async throws {
        let view = try AttackHarness.sysID(
            try await attack.send(
                .admin, "POST", "/api/now/table/sys_ui_view", body: #"{"name":"\#(name)","title":"\#(name)"}"#))
        let section = try AttackHarness.sysID(
            try await attack.send(
                .admin, "POST", "/api/now/table/sys_ui_section",
                body: #"{"name":"incident","view":"\#(view)","caption":""}"#))
        for (position, element) in elements.enumerated() {
            let made = try await attack.send(
                .admin, "POST", "/api/now/table/sys_ui_element",
                body: #"{"sys_ui_section":"\#(section)","element":"\#(element.0)","type":"\#(element.1)","#
                    + #""position":"\#(position)"}"#)
            #expect(made.statusCode == 201)
        }
    }

    @Test func aViewKeepsTheFieldsOfItsForm() async throws {
        let attack = try await AttackHarness()
        try await Self.makeView(
            attack, "terraform",
            [
                ("number", ""), (".split", ".split"), ("caller_id.email", ""), ("short_description", ""),
                ("activity.xml", "formatter"), ("caller_id.user_password", ""), ("no_such_field", ""),
            ])
        let inserted = try await JSONv2Tests.send(
            attack, "POST", [("sysparm_action", "insert")],
            body: #"{"short_description":"Printer on fire","caller_id":"\#(DemoData.sysID("sys_user", "abel.tuter"))"}"#)
        let sysID = try #require(try JSONValue(json: inserted.body).value(at: "records.0.sys_id").string)
        let number = try #require(try JSONValue(json: inserted.body).value(at: "records.0.number").string)
        let expected =
            #"{"records":[{"number":"\#(number)","caller_id.email":"abel.tuter@example.com","#
            + #""short_description":"Printer on fire"}]}"#

        let got = try await JSONv2Tests.send(attack, "GET", [("sysparm_sys_id", sysID), ("sysparm_view", "terraform")])
        #expect(got.statusCode == 200)
        #expect(Harness.text(got) == expected)
        let listed = try await JSONv2Tests.send(
            attack, "GET",
            [("sysparm_action", "getRecords"), ("sysparm_query", "sys_id=\(sysID)"), ("sysparm_view", "terraform")])
        #expect(Harness.text(listed) == expected)
        // In a POST's body too, as the Terraform provider sends it.
        let posted = try await JSONv2Tests.send(
            attack, "POST", body: #"{"sysparm_action":"get","sysparm_sys_id":"\#(sysID)","sysparm_view":"terraform"}"#)
        #expect(Harness.text(posted) == expected)

        // An unknown view, and a view without a section for the table: every field.
        let whole = try await JSONv2Tests.send(attack, "GET", [("sysparm_sys_id", sysID)])
        let unknown = try await JSONv2Tests.send(attack, "GET", [("sysparm_sys_id", sysID), ("sysparm_view", "nosuch")])
        #expect(Harness.text(unknown) == Harness.text(whole))
        #expect(Harness.text(whole) == JSONv2Tests.records([try await JSONv2Tests.tableRecord(attack, sysID)]))
        let problems = try await attack.send(
            .admin, "GET", "/api/now/table/problem", query: [("sysparm_limit", "1"), ("sysparm_fields", "sys_id")])
        let problem = try #require(try Harness.results(problems).first?["sys_id"] as? String)
        let otherTable = try await JSONv2Tests.send(
            attack, "GET", table: "problem", [("sysparm_sys_id", problem), ("sysparm_view", "terraform")])
        let otherWhole = try await JSONv2Tests.send(attack, "GET", table: "problem", [("sysparm_sys_id", problem)])
        #expect(Harness.text(otherTable) == Harness.text(otherWhole))
        #expect(try JSONValue(json: otherWhole.body).value(at: "records.0.sys_id").string == problem)

        // getKeys and writes are not kept to the view.
        let keys = try await JSONv2Tests.send(
            attack, "GET",
            [("sysparm_action", "getKeys"), ("sysparm_query", "sys_id=\(sysID)"), ("sysparm_view", "terraform")])
        #expect(Harness.text(keys) == JSONv2Tests.records([.string(sysID)]))
        // The view's records are the admin's to write.
        let refused = try await attack.send(
            .itil, "POST", "/api/now/table/sys_ui_view", body: #"{"name":"mine","title":"Mine"}"#)
        #expect(Harness.text(refused) == AttackHarness.refusal("Insert"))
    }
}
