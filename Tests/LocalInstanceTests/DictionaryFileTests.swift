import Foundation
import NowData
import Testing

@testable import LocalInstance

@Suite struct DictionaryFileTests {
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
        let path = try temporaryDictionaryFile(Self.audit)
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
        (
            #"{"tables": [{"name": "u_x", "extends": "tsk", "fields": []}]}"#,
            #": table "u_x": extends "tsk", which is not a table"#
        ),
        (
            #"{"tables": [{"name": "u_x", "extends": "task", "fields": [{"name": "state"}]}]}"#,
            #": table "u_x": field "state" is already a field of task, which it extends"#
        ),
        (
            #"{"tables": [{"name": "u_x", "fields": [{"name": "u_a"}, {"name": "u_b", "lable": "B"}]}]}"#,
            #": tables[0].fields[1]: unknown key "lable""#
        ),
        (
            #"{"tables": [{"name": "u_x", "fields": [{"name": "u_a", "choices": [{"value": "1", "text": "One"}]}]}]}"#,
            #": tables[0].fields[0].choices[0]: unknown key "text""#
        ),
        (#"{"tables": [], "version": 2}"#, #": unknown key "version""#),
        (
            #"{"tables": [{"name": "u_x", "fields": [{"name": "u_a"}, {"name": 5}]}]}"#,
            #": tables[0].fields[1].name: expected a string, found a number"#
        ),
        (
            #"{"tables": [{"name": "u_x", "fields": [{"name": "u_a", "type": ["string"]}]}]}"#,
            #": tables[0].fields[0].type: expected a string, found an array"#
        ),
        (
            #"{"tables": [{"name": "u_x", "fields": [{"name": "u_a", "default": 1}]}]}"#,
            #": tables[0].fields[0].default: expected a string, found a number"#
        ),
        (
            #"{"tables": [{"name": "u_x", "fields": [{"name": "u_a", "choices": [{"value": true}]}]}]}"#,
            #": tables[0].fields[0].choices[0].value: expected a string, found a boolean"#
        ),
        (
            #"{"tables": [{"name": "u_x", "fields": [{"name": "u_a", "choices": [{"label": "One"}]}]}]}"#,
            #": tables[0].fields[0].choices[0]: missing key "value""#
        ),
        (#"{"tables": [{"name": "u_x", "fields": [{}]}]}"#, #": tables[0].fields[0]: missing key "name""#),
        (#"{"tables": [{"name": null, "fields": []}]}"#, #": tables[0].name: expected a string, found null"#),
        (#"{"tables": [{"name": "u_x", "fields": {}}]}"#, #": tables[0].fields: expected an array, found an object"#),
        (
            #"{"tables": [{"name": "u_x", "fields": ["u_a"]}]}"#,
            #": tables[0].fields[0]: expected an object, found a string"#
        ),
        (
            #"{"tables": [{"name": "u_x", "number_start": 1.5, "fields": []}]}"#,
            #": tables[0].number_start: expected a whole number, found 1.5"#
        ),
        (
            #"{"tables": [{"name": "u_x", "number_start": "1001", "fields": []}]}"#,
            #": tables[0].number_start: expected a whole number, found a string"#
        ),
        (#"{"tables": [{"name": "u_x", "feilds": []}]}"#, #": tables[0]: unknown key "feilds""#),
        (#"{"tables": {}}"#, #": tables: expected an array, found an object"#),
        (#"{}"#, #": missing key "tables""#),
        (#"[]"#, #": expected an object, found an array"#),
        (
            #"{"tables": [{"name": "u_x", "fields": []}"#,
            #": not a valid JSON dictionary file: The given data was not valid JSON: Unexpected end of file during JSON parse."#
        ),
        (
            "{\"tables\": [\n  {\"name\": u_x, \"fields\": []}\n]}",
            #": not a valid JSON dictionary file: The given data was not valid JSON: Invalid value around line 2, column 12."#
        ),
    ])
    func invalidFilesAreRefusedWithWhatAndWhere(text: String, message: String) throws {
        let path = try temporaryDictionaryFile(text)
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
