import Foundation
import NowData
import Testing

@testable import LocalInstance

/// How a write's JSON body becomes stored values: each value as the platform stores it, read back as the Table API
/// returns every field, a string.
@Suite struct WriteBodyValueTests {
    let harness: Harness

    static let expenses = """
        {"tables": [{
          "name": "u_expense", "display_field": "u_note",
          "fields": [
            {"name": "u_note"}, {"name": "u_amount"}, {"name": "u_count"}, {"name": "u_approved", "type": "boolean"},
            {"name": "u_owner", "type": "reference", "reference": "sys_user"}
          ]
        }]}
        """

    /// The fields of `u_expense`, plain.
    static let fields = [
        ("sysparm_fields", "u_note,u_amount,u_count,u_approved,u_owner"), ("sysparm_exclude_reference_link", "true"),
    ]

    init() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("expense-\(UUID().uuidString).json")
            .path
        try Data(Self.expenses.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        harness = try Harness { $0.schemaFile = path }
    }

    /// The sys_id of a new expense written from `body`.
    private func create(_ body: String) async throws -> String {
        let response = try await harness.send("POST", "/api/now/table/u_expense", body: body)
        #expect(response.statusCode == 201)
        return try #require(try Harness.result(response)["sys_id"] as? String)
    }

    /// The expense `sysID` as a GET returns it.
    private func read(_ sysID: String) async throws -> String {
        Harness.text(try await harness.send("GET", "/api/now/table/u_expense/\(sysID)", query: Self.fields))
    }

    @Test func wholeNumbersAndBooleansAreStoredAsTheirJSONText() async throws {
        let sysID = try await create(#"{"u_note":true,"u_count":2800,"u_amount":-12,"u_approved":false}"#)
        #expect(
            try await read(sysID)
                == #"{"result":{"u_note":"true","u_amount":"-12","u_count":"2800","u_approved":"false","u_owner":""}}"#)
        let patched = try await harness.send(
            "PATCH", "/api/now/table/u_expense/\(sysID)", query: Self.fields, body: #"{"u_count":0,"u_approved":true}"#)
        let updated = #"{"result":{"u_note":"true","u_amount":"-12","u_count":"0","u_approved":"true","u_owner":""}}"#
        #expect(Harness.text(patched) == updated)
        #expect(try await read(sysID) == updated)
    }

    /// `0.10` is stored `0.10` and `12.50` is `12.50`, not the shortest text of a `Double`.
    @Test func fractionalNumbersKeepTheirText() async throws {
        let sysID = try await create(#"{"u_note":"Taxi","u_amount":0.10}"#)
        let patched = try await harness.send(
            "PATCH", "/api/now/table/u_expense/\(sysID)", query: Self.fields, body: #"{"u_count":12.50}"#)
        #expect(
            Harness.text(patched)
                == #"{"result":{"u_note":"Taxi","u_amount":"0.10","u_count":"12.50","u_approved":"","u_owner":""}}"#)
    }

    @Test func nullEmptiesAField() async throws {
        let sysID = try await create(#"{"u_note":"Hotel","u_amount":"80","u_approved":"true"}"#)
        let patched = try await harness.send(
            "PATCH", "/api/now/table/u_expense/\(sysID)", query: Self.fields,
            body: #"{"u_amount":null,"u_approved":null}"#)
        let cleared = #"{"result":{"u_note":"Hotel","u_amount":"","u_count":"","u_approved":"","u_owner":""}}"#
        #expect(Harness.text(patched) == cleared)
        #expect(try await read(sysID) == cleared)
        let created = try await harness.send(
            "POST", "/api/now/table/u_expense", query: Self.fields, body: #"{"u_note":null,"u_count":"3"}"#)
        #expect(
            Harness.text(created)
                == #"{"result":{"u_note":"","u_amount":"","u_count":"3","u_approved":"","u_owner":""}}"#)
    }

    /// An object is read by its `value`, as a read with `sysparm_display_value=all` gives a field, so that a record
    /// read that way can be written back; arrays and objects without `value` are not stored.
    @Test func anObjectIsReadByItsValue() async throws {
        let abel = DemoData.sysID("sys_user", "abel.tuter")
        let body = """
            {"u_note":{"display_value":"Lunch","value":"Lunch"},"u_owner":{"display_value":"Abel Tuter",\
            "link":"http://localhost/api/now/table/sys_user/\(abel)","value":"\(abel)"},"u_count":{"value":7},\
            "u_approved":{"value":{"value":true}},"u_amount":["1"]}
            """
        let created = try await harness.send("POST", "/api/now/table/u_expense", query: Self.fields, body: body)
        let expected =
            #"{"result":{"u_note":"Lunch","u_amount":"","u_count":"7","u_approved":"true","u_owner":"\#(abel)"}}"#
        #expect(Harness.text(created) == expected)
        let sysID = try #require(
            try Harness.result(try await harness.send("POST", "/api/now/table/u_expense", body: body))["sys_id"]
                as? String)
        let patched = try await harness.send(
            "PATCH", "/api/now/table/u_expense/\(sysID)", query: Self.fields,
            body: #"{"u_note":{"display_value":"Dinner"},"u_amount":{"currency":"EUR"},"u_count":[8]}"#)
        #expect(Harness.text(patched) == expected)
        #expect(harness.log.all.isEmpty)
    }

    /// U+0000 inside a string is stored and returned with every byte after it.
    @Test func aStringWithANULIsStoredWhole() async throws {
        let sysID = try await create(#"{"u_note":"before\u0000after é"}"#)
        let expected = #"{"u_note":"before\u0000after é","u_amount":"","u_count":"","u_approved":"","u_owner":""}"#
        #expect(try await read(sysID) == #"{"result":\#(expected)}"#)
        let listed = try await harness.send("GET", "/api/now/table/u_expense", query: Self.fields)
        #expect(Harness.text(listed) == #"{"result":[\#(expected)]}"#)
        let stored = try harness.instance.database.read { db in
            try harness.instance.store.fetch(
                try #require(harness.instance.dictionary.table("u_expense")), sysID: sysID, db)
        }
        #expect(stored?["u_note"] == "before\u{0}after é")
    }
}
