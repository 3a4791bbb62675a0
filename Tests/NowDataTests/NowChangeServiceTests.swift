import Foundation
import LocalInstance
import NowData
import Testing

/// ``NowChangeService`` and ``NowImportSetService`` against the demo local instance in process, in both forms:
/// a standard change from a template moved through its model, a refused move as a ``NowDataError``, and rows
/// loaded through an import set.
@Suite struct NowChangeServiceTests {
    static func configuration(_ instance: LocalInstance) -> NowServiceConfiguration {
        NowServiceConfiguration(
            instanceURL: URL(string: "https://example.service-now.com")!,
            authentication: .basic(user: "admin", password: "admin"), transport: instance.transport)
    }

    @Test func aStandardChangeMovesThroughItsModel() async throws {
        let instance = try makeLocalInstance(seedDemoData: true)
        defer { instance.close() }
        let changes = NowChangeService(configuration: Self.configuration(instance))
        let templates = try await changes.standardChangeTemplates(query: "name=Reboot Windows Server")
        #expect(templates.map { $0["name"]?.text } == ["Reboot Windows Server"])
        let change = try await changes.createStandardChange(template: templates[0].sysId)
        #expect(change.state == "-5")
        #expect(change["state"]?.displayValue == "New")
        #expect(change["type"]?.text == "standard")
        #expect(change.number.hasPrefix("CHG"))

        do {
            _ = try await changes.updateChange(sysId: change.sysId, fields: ["state": "implement"])
            Issue.record("a move the model has no transition for went through")
        } catch let error as NowDataError {
            #expect(
                error.description
                    == "bad response 400 from PATCH /api/sn_chg_rest/change/\(change.sysId): Change Request cannot "
                    + "move to state: implement (The Standard change model has no transition from New to Implement; "
                    + "from New a change can move to: Scheduled, Canceled)")
        }
        let scheduled = try await changes.updateChange(
            sysId: change.sysId,
            fields: ["state": "scheduled", "start_date": "2026-12-06 22:00:00", "end_date": "2026-12-06 23:00:00"])
        #expect(scheduled["state"]?.displayValue == "Scheduled")
        let task = try await changes.createTask(ofChange: change.sysId, fields: ["short_description": "Reboot"])
        #expect(task["change_request"]?.text == change.sysId)
        let closedTask = try await changes.updateTask(
            ofChange: change.sysId, taskSysId: task.sysId, fields: ["state": "3"])
        #expect(closedTask["state"]?.displayValue == "Closed")
        #expect(try await changes.tasks(ofChange: change.sysId).map(\.sysId) == [task.sysId])
        for state in ["implement", "review"] {
            _ = try await changes.updateChange(sysId: change.sysId, fields: ["state": .string(state)])
        }
        let closed: NowChangeRecord = try await withCheckedThrowingContinuation { continuation in
            changes.updateChange(
                sysId: change.sysId, fields: ["state": "closed", "close_code": "successful", "close_notes": "Done."]
            ) { continuation.resume(with: $0) }
        }
        #expect(closed["state"]?.value == .number(JSONNumber(3)))
        #expect(closed["active"]?.value == .bool(false))
        let found = try await changes.changes(query: "number=\(change.number)")
        #expect(found.map(\.sysId) == [change.sysId])
        let models = try await changes.changeModels()
        #expect(models.map { $0["name"]?.text ?? "" } == ["Normal", "Standard", "Emergency"])
        let normal = try await changes.createChange(model: "Normal", fields: ["short_description": "Add disk"])
        #expect(normal["type"]?.text == "normal")
        let deleted = try await changes.deleteChange(sysId: normal.sysId)
        #expect(deleted.sysId == normal.sysId)
        await #expect(throws: NowDataError.self) { try await changes.change(sysId: normal.sysId) }
    }

    @Test func rowsGoThroughAnImportSet() async throws {
        let instance = try makeLocalInstance(seedDemoData: true)
        defer { instance.close() }
        let imports = NowImportSetService(configuration: Self.configuration(instance))
        let row = ["u_name": "lnx-web-09", "u_os": "Linux Debian"]
        let first = try await imports.insert(row, into: "u_cmdb_ci_server_import")
        #expect(first.importSet == "ISET0010001")
        #expect(first.stagingTable == "u_cmdb_ci_server_import")
        #expect(first.rows.map(\.status) == [.inserted])
        #expect(first.rows.first?.table == "cmdb_ci_server")
        #expect(first.rows.first?.displayValue == "lnx-web-09")
        let second: NowImportSetResult = try await withCheckedThrowingContinuation { continuation in
            imports.insert(row, into: "u_cmdb_ci_server_import") { continuation.resume(with: $0) }
        }
        #expect(second.rows.map(\.status) == [.ignored])
        #expect(second.rows.first?.sysId == first.rows.first?.sysId)
        #expect(second.rows.first?.message == "No field values changed")
        let multiple = try await imports.insertMultiple(
            [["u_name": "lnx-web-09", "u_ram": "4096"], ["u_name": "lnx-web-10"]], into: "u_cmdb_ci_server_import")
        #expect(multiple.importSetId.count == 32 && multiple.multiImportSetId.count == 32)
        do {
            _ = try await imports.insert(row, into: "incident")
            Issue.record("a row went into a table that is no import set table")
        } catch let error as NowDataError {
            #expect(
                error.description
                    == "bad response 400 from POST /api/now/import/incident: Invalid staging table incident ('incident' "
                    + "is not an import set table (a table extending sys_import_set_row))")
        }
    }
}
