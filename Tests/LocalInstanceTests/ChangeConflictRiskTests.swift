import Foundation
import NowData
import Testing

@testable import LocalInstance

/// Conflict checking (`POST|GET|DELETE /api/sn_chg_rest/change/{sys_id}/conflict`: a change whose configuration
/// item another active change has scheduled in an overlapping window) and risk calculation
/// (`PATCH /change[/standard]/{sys_id}/risk`), with the API's roles.
@Suite struct ChangeConflictRiskTests {
    static let base = ChangeManagementAPITests.base
    static let server = DemoData.sysID("cmdb_ci_server", "db-prod-01")

    /// Creates a normal change on the server, planned from `start` to `end`, as the admin.
    static func change(_ attack: AttackHarness, _ name: String, _ start: String, _ end: String) async throws
        -> String
    {
        try ChangeManagementAPITests.sysID(
            try await attack.send(
                .admin, "POST", "\(base)/normal",
                body: #"{"short_description":"\#(name)","cmdb_ci":"\#(server)","#
                    + #""start_date":"\#(start)","end_date":"\#(end)"}"#))
    }

    /// The `result` of a change's record as the Table API gives its `field`.
    static func field(_ attack: AttackHarness, _ table: String, _ sysID: String, _ field: String) async throws
        -> String
    {
        let record = try await attack.send(
            .admin, "GET", "/api/now/table/\(table)/\(sysID)", query: [("sysparm_fields", field)])
        return try #require(try Harness.result(record)[field] as? String)
    }

    /// The sys_ids of the change's `conflict` records.
    static func conflictIDs(_ attack: AttackHarness, _ change: String) async throws -> [String] {
        try Harness.results(
            try await attack.send(
                .admin, "GET", "/api/now/table/conflict",
                query: [("sysparm_query", "change=\(change)"), ("sysparm_fields", "sys_id")])
        ).compactMap { $0["sys_id"] as? String }
    }

    @Test func aChangeOnACIAnotherChangeHasScheduledThenConflictsWithIt() async throws {
        let attack = try await AttackHarness()
        let upgrade = try await Self.change(attack, "Upgrade the database", "2026-12-10 22:00:00", "2026-12-11 02:00:00")
        let patch = try await Self.change(attack, "Patch the database", "2026-12-11 01:00:00", "2026-12-11 03:00:00")
        let later = try await Self.change(attack, "Tune the database", "2026-12-11 03:00:00", "2026-12-11 04:00:00")
        let path = "\(Self.base)/\(patch)/conflict"

        let notRun = try await attack.send(.itil, "GET", path)
        #expect(
            Harness.text(notRun)
                == #"{"result":{"status":"Not Run","last_run":"","record_count":"1","job_status":"","conflicts":[]}}"#)
        let checked = try await attack.send(.itil, "POST", path)
        #expect(checked.statusCode == 200)
        let run = try #require(try Harness.json(checked)["result"] as? String)
        #expect(run.count == 32)

        let conflictIDs = try await Self.conflictIDs(attack, patch)
        #expect(conflictIDs.count == 1)
        let conflict = try #require(conflictIDs.first)
        let record = try JSONValue(json: Data(try await ChangeManagementAPITests.pairs(attack.harness, "conflict", conflict).utf8))
        #expect(try record.value(at: "result.conflicting_change.value").string == upgrade)
        #expect(
            try record.value(at: "result.type").jsonData()
                == Data(#"{"display_value":"CI Already Scheduled","value":"ci_already_scheduled"}"#.utf8))
        let lastRun = try await Self.field(attack, "change_request", patch, "conflict_last_run")
        #expect(try await Self.field(attack, "conflict", conflict, "last_checked") == lastRun)
        let expected: JSONValue = [
            "result": [
                "status": "Conflict", "last_run": .string(lastRun), "record_count": "1", "job_status": "2",
                "conflicts": [try record.value(at: "result")],
            ]
        ]
        let answered = try await attack.send(.itil, "GET", path)
        #expect(Harness.text(answered) == String(decoding: expected.jsonData(), as: UTF8.self))

        // A second check replaces the conflicts rather than adding to them.
        #expect(try await attack.send(.itil, "POST", path).statusCode == 200)
        #expect(try await Self.conflictIDs(attack, patch).count == 1)
        // The later change starts when the patch ends: no overlap, no conflict.
        #expect(try await attack.send(.itil, "POST", "\(Self.base)/\(later)/conflict").statusCode == 200)
        #expect(try await Self.field(attack, "change_request", later, "conflict_status") == "No Conflict")
        #expect(try await Self.conflictIDs(attack, later).isEmpty)
        // A change without planned dates cannot be checked.
        let unplanned = try ChangeManagementAPITests.sysID(
            try await attack.send(.itil, "POST", "\(Self.base)/normal", body: #"{"short_description":"Someday"}"#))
        let refused = try await attack.send(.itil, "POST", "\(Self.base)/\(unplanned)/conflict")
        #expect(refused.statusCode == 400)
        #expect(
            Harness.text(refused)
                == ChangeManagementAPITests.error(
                    "Conflict checking cannot start", "the change request has no planned start and end dates"))
        // There is never a check running: canceling one answers 200 without a body (as the change manager).
        let canceled = try await attack.send(.admin, "DELETE", path)
        #expect(canceled.statusCode == 200)
        #expect(canceled.body.isEmpty)
        let missing = try await attack.send(.itil, "GET", "\(Self.base)/\(String(repeating: "0", count: 32))/conflict")
        #expect(missing.statusCode == 404)

        let employee = try await attack.send(.joe, "POST", path)
        #expect(
            Harness.text(employee)
                == ChangeManagementAPITests.error(
                    "User Not Authorized",
                    "POST on the Change Management API needs one of the roles change_manager, itil, admin"))
        let itilCancel = try await attack.send(.itil, "DELETE", path)
        #expect(itilCancel.statusCode == 403)
    }

    @Test func riskAndImpactComeFromTheFirstConditionTheChangeMeets() async throws {
        let attack = try await AttackHarness()
        let upgrade = try await Self.change(attack, "Upgrade the database", "2026-12-10 22:00:00", "2026-12-11 02:00:00")
        let patch = try await Self.change(attack, "Patch the database", "2026-12-11 01:00:00", "2026-12-11 03:00:00")
        func assessed(_ path: String) async throws -> (NowHTTPResponse, String, String) {
            let response = try await attack.send(.itil, "PATCH", path)
            let body = try JSONValue(json: response.body)
            return (
                response, try body.value(at: "result.risk.display_value").string ?? "",
                try body.value(at: "result.impact.display_value").string ?? ""
            )
        }
        let (plain, risk, impact) = try await assessed("\(Self.base)/\(upgrade)/risk")
        #expect(plain.statusCode == 200)
        #expect(Harness.text(plain) == (try await ChangeManagementAPITests.pairs(attack.harness, "change_request", upgrade)))
        #expect([risk, impact] == ["Moderate", "3 - Low"])
        _ = try await attack.send(.itil, "POST", "\(Self.base)/\(patch)/conflict")
        let conflicting = try await assessed("\(Self.base)/\(patch)/risk")
        #expect([conflicting.1, conflicting.2] == ["Moderate", "2 - Medium"])
        let emergency = try ChangeManagementAPITests.sysID(
            try await attack.send(.itil, "POST", "\(Self.base)/emergency", body: #"{"short_description":"Now"}"#))
        let urgent = try await assessed("\(Self.base)/\(emergency)/risk")
        #expect([urgent.1, urgent.2] == ["High", "1 - High"])
        let standard = try ChangeManagementAPITests.sysID(
            try await attack.send(.itil, "POST", "\(Self.base)/standard/\(ChangeManagementAPITests.reboot)"))
        let low = try await assessed("\(Self.base)/standard/\(standard)/risk")
        #expect([low.1, low.2] == ["Low", "3 - Low"])
        // Again: the same risk, nothing else moves.
        let again = try await assessed("\(Self.base)/standard/\(standard)/risk")
        #expect(Harness.text(again.0) == Harness.text(low.0))
        let notStandard = try await attack.send(.itil, "PATCH", "\(Self.base)/standard/\(upgrade)/risk")
        #expect(notStandard.statusCode == 404)
        let employee = try await attack.send(.joe, "PATCH", "\(Self.base)/\(upgrade)/risk")
        #expect(employee.statusCode == 403)
    }
}
