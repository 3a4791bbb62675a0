import Foundation
import NowData
import Testing

@testable import LocalInstance

/// A record read from a fresh instance has every field a PDI's record of its table answers, with the PDI's defaults.
///
/// The field lists are read from `docs/reference/pdi-fields/` (one JSON file per table, the only copy: the
/// documentation and these tests cannot drift apart). Each file names its public sources: recorded Table API
/// responses of PDIs (ServiceNow's WorkArena, servicenow.itsm, Port's and Demisto's recorded records, client
/// models) and ServiceNow's documentation; see that folder's README.md.
@Suite struct PDIFieldListTests {
    /// One table's file: its own fields, the table it extends, and the inherited fields whose default differs.
    struct FieldList: Decodable {
        struct Field: Decodable {
            var name: String
            var `default`: String?
        }
        var table: String
        var extends: String?
        var fields: [Field]
        var overrides: [Field]?
    }

    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/reference/pdi-fields")

    /// The fields a PDI record of `table` answers, inherited ones included, each with its default (the nearest
    /// table's).
    static func pdiFields(_ table: String) throws -> [String: String?] {
        let data = try Data(contentsOf: folder.appendingPathComponent("\(table).json"))
        let list = try JSONDecoder().decode(FieldList.self, from: data)
        var fields = try list.extends.map(pdiFields) ?? [:]
        for field in list.fields + (list.overrides ?? []) { fields[field.name] = field.default }
        return fields
    }

    @Test(arguments: [
        "task", "incident", "incident_task", "problem", "problem_task", "sys_user", "sys_user_group",
        "sys_user_grmember", "sys_user_role", "sys_user_has_role", "sys_user_preference", "cmn_department",
        "cmn_location", "cmn_cost_center", "core_company", "cmdb_ci", "cmdb_ci_hardware", "cmdb_ci_computer",
        "cmdb_ci_server", "cmdb_ci_linux_server", "cmdb_ci_win_server", "cmdb_ci_vm_object", "cmdb_ci_vm_instance",
        "cmdb_ci_ec2_instance", "cmdb_ci_appl", "cmdb_ci_database", "cmdb_ci_service", "cmdb_rel_ci", "sys_choice",
        "change_request", "change_task", "kb_knowledge_base", "kb_category", "kb_knowledge", "sysapproval_approver",
    ])
    func aFreshRecordHasEveryFieldOfItsPDIFieldListWithItsDefaults(table: String) async throws {
        let harness = try Harness(seed: false)
        let created = try await harness.send(
            "POST", "/api/now/table/\(table)", query: [("sysparm_exclude_reference_link", "true")],
            body: table.hasPrefix("sys_") || table.hasPrefix("c")
                ? #"{"name":"fresh"}"# : #"{"short_description":"fresh"}"#)
        #expect(created.statusCode == 201)
        let record = try Harness.result(created)
        let expected = try Self.pdiFields(table)
        let missing = expected.keys.filter { record[$0] == nil }.sorted()
        #expect(missing == [], "\(table) lacks fields a PDI record has")
        // The defaults a fresh PDI record shows (javascript: defaults are the current user and now).
        var wrong: [String] = []
        for (name, value) in expected.sorted(by: { $0.key < $1.key }) {
            guard let value, !value.hasPrefix("javascript:") else { continue }
            let local = record[name] as? String
            if local != value { wrong.append("\(name): \(local ?? "nil") instead of \(value)") }
        }
        #expect(wrong == [], "\(table)'s defaults")
    }

    /// A field whose PDI default is a script the local instance carries out (the session's user, now) has that
    /// script as its `sys_dictionary` default, as a PDI's dictionary says; a field without a default has "".
    @Test(arguments: [
        ("kb_knowledge", "author"), ("task", "opened_by"), ("task", "opened_at"), ("incident", "caller_id"),
    ])
    func aFieldsDictionaryEntryHasItsPDIDefault(table: String, field: String) async throws {
        let harness = try Harness(seed: false)
        let response = try await harness.send(
            "GET", "/api/now/table/sys_dictionary",
            query: [("sysparm_query", "name=\(table)^element=\(field)"), ("sysparm_fields", "default_value")])
        let expected = try #require(try Self.pdiFields(table)[field]) ?? ""
        #expect(Harness.text(response) == #"{"result":[{"default_value":"\#(expected)"}]}"#)
    }

    /// The dictionary tables are the instance's own (read-only): the record a fresh instance generates for a table
    /// (`sys_db_object`) and for one of its fields (`sys_dictionary`) has every field a PDI's has.
    @Test(arguments: [("sys_db_object", "name=incident"), ("sys_dictionary", "name=incident^element=caller_id")])
    func aGeneratedDictionaryRecordHasEveryFieldOfItsPDIFieldList(table: String, query: String) async throws {
        let harness = try Harness(seed: false)
        let response = try await harness.send(
            "GET", "/api/now/table/\(table)", query: [("sysparm_query", query), ("sysparm_limit", "1")])
        #expect(response.statusCode == 200)
        let record = try #require(try Harness.results(response).first)
        let missing = try Self.pdiFields(table).keys.filter { record[$0] == nil }.sorted()
        #expect(missing == [], "\(table) lacks fields a PDI record has")
    }
}
