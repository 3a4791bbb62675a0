import Foundation
import NowData
import Testing

@testable import LocalInstance

@Suite struct DictionaryFileTests {
    private func write(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("schema-\(UUID().uuidString).json")
            .path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    static let audit = """
        {"tables": [{
          "name": "u_ci_audit", "label": "CI Audit", "display_field": "u_name", "number_prefix": "AUD",
          "fields": [
            {"name": "u_name", "label": "Name"},
            {"name": "u_result", "type": "integer", "default": "1",
             "choices": [{"value": "1", "label": "Pass"}, {"value": "2", "label": "Fail"}]},
            {"name": "u_ci", "type": "reference", "reference": "cmdb_ci_server"},
            {"name": "u_checked_on", "type": "glide_date_time"}
          ]
        }]}
        """

    @Test func customTableWorksThroughTheTableAPI() async throws {
        let path = try write(Self.audit)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let harness = try Harness { $0.schemaFile = path }
        let server = DemoData.sysID("cmdb_ci_server", "db-prod-01")
        let created = try await harness.send(
            "POST", "/api/now/table/u_ci_audit", query: [("sysparm_display_value", "all")],
            body: #"{"u_name":"Quarterly","u_ci":"\#(server)","u_checked_on":"2026-11-01 10:00:00"}"#)
        #expect(created.statusCode == 201)
        let record = try Harness.result(created)
        #expect(record["number"] as? [String: String] == ["display_value": "AUD0001001", "value": "AUD0001001"])
        #expect(record["u_result"] as? [String: String] == ["display_value": "Pass", "value": "1"])
        #expect((record["u_ci"] as? [String: String])?["display_value"] == "db-prod-01")
        let listed = try await harness.send(
            "GET", "/api/now/table/u_ci_audit",
            query: [("sysparm_query", "u_ci.name=db-prod-01"), ("sysparm_fields", "u_name")])
        #expect(Harness.text(listed) == #"{"result":[{"u_name":"Quarterly"}]}"#)
    }

    @Test(arguments: [
        (
            #"{"tables": [{"name": "u_x", "fields": [{"name": "u_a", "type": "money"}]}]}"#,
            #": table "u_x": field "u_a": unknown type "money" (string, integer, decimal, boolean, glide_date_time, glide_date, reference, choice)"#
        ),
        (
            #"{"tables": [{"name": "u_x", "fields": [{"name": "u_a", "type": "reference", "reference": "cmdb"}]}]}"#,
            #": table "u_x": field "u_a": unknown reference table "cmdb""#
        ),
        (#"{"tables": [{"name": "incident", "fields": []}]}"#, #": table "incident": the table is already defined"#),
        (
            #"{"tables": [{"name": "U X", "fields": []}]}"#,
            #": table "U X": a table name is lowercase letters, digits and underscores"#
        ),
        (
            #"{"tables": [{"name": "u_x", "display_field": "u_b", "fields": [{"name": "u_a"}]}]}"#,
            #": table "u_x": display_field "u_b" is not a field of the table"#
        ),
        (#"{"tables": [{"name": "u_x"}]}"#, #": tables[0]: missing key "fields""#),
    ])
    func invalidFilesAreRefusedWithWhatAndWhere(text: String, message: String) throws {
        let path = try write(text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: LocalInstanceError(path + message)) {
            try LocalInstance(options: LocalInstance.Options(schemaFile: path, seedDemoData: false))
        }
    }

    @Test func missingFileIsReported() throws {
        #expect {
            try LocalInstance(options: LocalInstance.Options(schemaFile: "/nonexistent/schema.json"))
        } throws: { error in
            (error as? LocalInstanceError)?.description.hasPrefix(
                "/nonexistent/schema.json: cannot read the dictionary file") == true
        }
    }
}
