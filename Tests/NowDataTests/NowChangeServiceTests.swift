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
        #expect(templates.map { $0["name"] } == ["Reboot Windows Server"])
        let change = try await changes.createStandardChange(template: try #require(templates[0].sysId))
        let changeID = try #require(change.sysId)
        #expect(change["state"] == "-5")
        #expect(change.displayValue("state") == "New")
        #expect(change.json["state"] == .object(["display_value": "New", "value": .number(JSONNumber(-5))]))
        #expect(change["type"] == "standard")
        #expect(change["number"]?.hasPrefix("CHG") == true)

        do {
            _ = try await changes.updateChange(sysId: changeID, fields: ["state": "implement"])
            Issue.record("a move the model has no transition for went through")
        } catch let error as NowDataError {
            #expect(
                error.description
                    == "bad response 400 from PATCH /api/sn_chg_rest/change/\(changeID): Change Request cannot "
                    + "move to state: implement (The Standard change model has no transition from New to Implement; "
                    + "from New a change can move to: Scheduled, Canceled)")
        }
        let scheduled = try await changes.updateChange(
            sysId: changeID,
            fields: ["state": "scheduled", "start_date": "2026-12-06 22:00:00", "end_date": "2026-12-06 23:00:00"])
        #expect(scheduled.displayValue("state") == "Scheduled")
        let task = try await changes.createTask(ofChange: changeID, fields: ["short_description": "Reboot"])
        #expect(task["change_request"] == changeID)
        let taskID = try #require(task.sysId)
        let closedTask = try await changes.updateTask(
            ofChange: changeID, taskSysId: taskID, fields: ["state": "3"])
        #expect(closedTask.displayValue("state") == "Closed")
        #expect(try await changes.tasks(ofChange: changeID).map(\.sysId) == [taskID])
        for state in ["implement", "review"] {
            _ = try await changes.updateChange(sysId: changeID, fields: ["state": .string(state)])
        }
        let closed: NowRecord = try await withCheckedThrowingContinuation { continuation in
            changes.updateChange(
                sysId: changeID, fields: ["state": "closed", "close_code": "successful", "close_notes": "Done."]
            ) { continuation.resume(with: $0) }
        }
        #expect(closed.json["state"] == .object(["display_value": "Closed", "value": .number(JSONNumber(3))]))
        #expect(closed.json["active"] == .object(["display_value": "false", "value": false]))
        let found = try await changes.changes(query: "number=\(change["number"] ?? "")")
        #expect(found.map(\.sysId) == [changeID])
        let models = try await changes.changeModels()
        #expect(models.map { $0["name"] ?? "" } == ["Normal", "Standard", "Emergency"])
        let normal = try await changes.createChange(model: "Normal", fields: ["short_description": "Add disk"])
        #expect(normal["type"] == "normal")
        let normalID = try #require(normal.sysId)
        let deleted = try await changes.deleteChange(sysId: normalID)
        #expect(deleted.sysId == normalID)
        await #expect(throws: NowDataError.self) { try await changes.change(sysId: normalID) }
    }

    @Test func aChangeIsApprovedAndItsRiskAssessed() async throws {
        let instance = try makeLocalInstance(seedDemoData: true)
        defer { instance.close() }
        let configuration = Self.configuration(instance)
        let changes = NowChangeService(configuration: configuration)
        let change = try await changes.createChange(model: "Emergency", fields: ["short_description": "Fix now"])
        let changeID = try #require(change.sysId)
        do {
            _ = try await changes.setApproval(ofChange: changeID, state: "approved")
            Issue.record("an approval without a requested approval record went through")
        } catch let error as NowDataError {
            #expect(
                error.description
                    == "bad response 400 from PATCH /api/sn_chg_rest/change/\(changeID)/approvals: No approval to act "
                    + "on (admin has no requested approval of this change request)")
        }
        // admin's sys_id, as on a PDI.
        let admin = "6816f79cc0a8016401c5a33be04be441"
        _ = try await NowTableService(configuration: configuration).createRecord(
            with: ["sysapproval": .string(changeID), "approver": .string(admin)], in: "sysapproval_approver")
        let rejected: NowRecord = try await withCheckedThrowingContinuation { continuation in
            changes.setApproval(ofChange: changeID, state: "rejected", comments: "Not now") {
                continuation.resume(with: $0)
            }
        }
        #expect(rejected["approval"] == "rejected")
        let assessed = try await changes.assessRisk(ofChange: changeID)
        #expect(assessed.displayValue("risk") == "High")
        #expect(assessed.displayValue("impact") == "1 - High")
    }

    @Test func theSlotsOfAConfigurationItemAndOfAChangeComeThroughTheirWorker() async throws {
        let instance = try makeLocalInstance(seedDemoData: true)
        defer { instance.close() }
        let configuration = Self.configuration(instance)
        let changes = NowChangeService(configuration: configuration)
        let servers = try await NowTableService(configuration: configuration).records(
            from: "cmdb_ci_server", configuration: FetchConfiguration(filter: Filter(query: "name=mail-01")))
        let mail = try #require(try JSONValue(json: servers).value(at: "result.0.sys_id").string)
        // The mail server's maintenance windows are Saturday nights, but for the two in the year-end freeze.
        let slots = try await changes.availableSlots(
            forConfigurationItem: mail, durationInSeconds: 7200, plannedStart: "2026-12-07 10:00:00")
        #expect(slots.count == 11)
        #expect(
            slots.prefix(3).map(\.startDisplayValue) == [
                "2026-12-12 22:00:00", "2026-12-19 22:00:00", "2027-01-09 22:00:00",
            ])
        #expect(slots.allSatisfy { $0.end.timeIntervalSince($0.start) == 7200 })

        let change = try await changes.createChange(
            fields: [
                "short_description": "Patch the mail server", "cmdb_ci": .string(mail),
                "start_date": "2026-12-07 10:00:00", "end_date": "2026-12-07 12:00:00",
            ])
        let changeID = try #require(change.sysId)
        let ofChange: [NowChangeSlot] = try await withCheckedThrowingContinuation { continuation in
            changes.availableSlots(ofChange: changeID) { continuation.resume(with: $0) }
        }
        #expect(ofChange == slots)
        do {
            _ = try await changes.availableSlots(forConfigurationItem: mail, durationInSeconds: 0)
            Issue.record("a slot search of no duration went through")
        } catch let error as NowDataError {
            #expect(
                error.description
                    == "bad response 400 from GET /api/sn_chg_rest/change/ci/\(mail)/schedule: Invalid "
                    + "duration_in_seconds ('0' is not a whole number of seconds from 1 to 7776000)")
        }
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
