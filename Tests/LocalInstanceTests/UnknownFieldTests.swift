import Foundation
import NowData
import Testing

@testable import LocalInstance

/// A write naming fields its table does not have: the rest of it is stored, and the ignored names come back in the
/// `X-Nowflow-Warning` header and the log, each with the tables that do have a field of that name.
@Suite struct UnknownFieldTests {
    let harness: Harness

    init() throws {
        harness = try Harness(seed: false)
    }

    @Test func aCreateNamesTheFieldsItIgnored() async throws {
        let created = try await harness.send(
            "POST", "/api/now/table/cmdb_ci", query: [("sysparm_fields", "name")],
            body: #"{"name":"box","cpu_count":"4","colour":"red"}"#)
        #expect(created.statusCode == 201)
        #expect(Harness.text(created) == #"{"result":{"name":"box"}}"#)
        let expected =
            "ignored fields: 'cpu_count' (cmdb_ci has no such field; cmdb_ci_computer, cmdb_ci_server, "
            + "cmdb_ci_linux_server and 1 more have one), 'colour' (cmdb_ci has no such field)"
        #expect(created.headers.value(named: "X-Nowflow-Warning") == expected)
        #expect(
            harness.log.all.filter { $0.contains("ignored field") } == [
                "local instance: cmdb_ci: ignored field 'cpu_count' (cmdb_ci has no such field; cmdb_ci_computer, "
                    + "cmdb_ci_server, cmdb_ci_linux_server and 1 more have one)",
                "local instance: cmdb_ci: ignored field 'colour' (cmdb_ci has no such field)",
            ])
    }

    @Test func anUpdateNamesThemForTheRecordsOwnTable() async throws {
        let created = try await harness.send(
            "POST", "/api/now/table/incident", query: [("sysparm_fields", "sys_id")],
            body: #"{"short_description":"printer"}"#)
        #expect(created.headers.value(named: "X-Nowflow-Warning") == nil)
        let sysID = try #require(try Harness.result(created)["sys_id"] as? String)
        // Through task: the incident's own fields are known, a problem's are not.
        let updated = try await harness.send(
            "PATCH", "/api/now/table/task/\(sysID)", query: [("sysparm_fields", "urgency")],
            body: #"{"urgency":"2","fix_notes":"reboot","line\nbreak":"x"}"#)
        #expect(updated.statusCode == 200)
        #expect(Harness.text(updated) == #"{"result":{"urgency":"2"}}"#)
        #expect(
            updated.headers.value(named: "X-Nowflow-Warning")
                == #"ignored fields: 'fix_notes' (incident has no such field; problem, problem_task have one), "#
                + #"'line\nbreak' (incident has no such field)"#)
    }
}
