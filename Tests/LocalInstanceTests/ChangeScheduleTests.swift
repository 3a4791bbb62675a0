import Foundation
import NowData
import Testing

@testable import LocalInstance

/// The Change Management API's schedules (`GET /change/{sys_id}/schedule`, `GET /change/ci/{sys_id}/schedule`,
/// `PATCH /change/{sys_id}/schedule/first_available`, `GET /change/worker/{sys_id}`), the blackout and maintenance conflicts that conflict checking finds from the
/// demo's schedules (the year-end freeze for every item, Saturday nights for the mail server), and the approvals
/// a normal change's move into Assess and Authorize requests.
@Suite struct ChangeScheduleTests {
    static let base = ChangeManagementAPITests.base
    static let database = DemoData.sysID("cmdb_ci_server", "db-prod-01")
    static let mail = DemoData.sysID("cmdb_ci_server", "mail-01")
    static let freeze = DemoData.sysID("cmn_schedule_blackout", "Year-end change freeze")
    static let saturdays = DemoData.sysID("cmn_schedule_maintenance", "Mail server maintenance")

    /// Creates a normal change as the admin, with `fields` (JSON members).
    static func change(_ attack: AttackHarness, _ fields: String) async throws -> String {
        try ChangeManagementAPITests.sysID(
            try await attack.send(.admin, "POST", "\(base)/normal", body: "{\(fields)}"))
    }

    /// The worker of a 202 answer: its sys_id, once the whole body is checked against `request` (the worker's
    /// request, as JSON text) and `messages`.
    static func worker(_ response: NowHTTPResponse, request: String, info: [String] = []) throws -> String {
        #expect(response.statusCode == 202)
        let sysID = try #require(try JSONValue(json: response.body).value(at: "result.worker.sysId").string)
        #expect(Harness.text(response) == workerBody(sysID, request: request, info: info, spans: nil))
        return sysID
    }

    /// A worker's answer, with `spans` (start and end values; display values alike for a user in UTC) when given.
    static func workerBody(_ sysID: String, request: String, info: [String], spans: [(String, String)]?) -> String {
        var result: JSONObject = [
            "worker": ["sysId": .string(sysID), "link": .string("http://localhost\(base)/worker/\(sysID)")],
            "request": .string(request), "state": ["value": 3, "display_value": "Complete"], "type": "schedule",
            "messages": ["errorMessages": [], "warningMessages": [], "infoMessages": .array(info.map(JSONValue.string))],
        ]
        if let spans {
            result["payload"] = [
                "spans": .array(
                    spans.map { start, end in
                        [
                            "start": ["value": .string(start), "display_value": .string(start)],
                            "end": ["value": .string(end), "display_value": .string(end)],
                        ]
                    })
            ]
        }
        return String(decoding: JSONValue.object(["result": .object(result)]).jsonData(), as: UTF8.self)
    }

    @Test func anItemsSlotsAvoidItsBlackoutsAndItsOtherChanges() async throws {
        let attack = try await AttackHarness()
        // Another change has the database server for the first hour after the freeze.
        _ = try await Self.change(
            attack,
            #""short_description":"Reindex","cmdb_ci":"\#(Self.database)","start_date":"2027-01-04 00:00:00","#
                + #""end_date":"2027-01-04 01:00:00""#)
        let path = "\(Self.base)/ci/\(Self.database)/schedule"
        let query = [("duration_in_seconds", "7200"), ("planned_start_time", "2026-12-20 20:00:00")]
        let request =
            #"{"cmdb_ci_sys_id":"\#(Self.database)","planned_start_time":"2026-12-20 20:00:00","#
            + #""duration_in_seconds":7200,"timezone":"GMT"}"#
        let worker = try Self.worker(try await attack.send(.itil, "GET", path, query: query), request: request)
        let spans = [
            ("2026-12-20 20:00:00", "2026-12-20 22:00:00"), ("2027-01-04 01:00:00", "2027-01-04 03:00:00"),
        ]
        let answered = try await attack.send(.itil, "GET", "\(Self.base)/worker/\(worker)")
        #expect(answered.statusCode == 200)
        #expect(Harness.text(answered) == Self.workerBody(worker, request: request, info: [], spans: spans))

        // The same request again: another worker, with the same slots.
        let again = try Self.worker(try await attack.send(.itil, "GET", path, query: query), request: request)
        #expect(again != worker)
        #expect(
            Harness.text(try await attack.send(.itil, "GET", "\(Self.base)/worker/\(again)"))
                == Self.workerBody(again, request: request, info: [], spans: spans))

        // A slot longer than any free time in 90 days: none, and a message saying so.
        let long = [("duration_in_seconds", "7776000"), ("planned_start_time", "2026-12-20 20:00:00")]
        let longRequest =
            #"{"cmdb_ci_sys_id":"\#(Self.database)","planned_start_time":"2026-12-20 20:00:00","#
            + #""duration_in_seconds":7776000,"timezone":"GMT"}"#
        let info = ["No time slot of 7776000 seconds is available in the 90 days from 2026-12-20 20:00:00"]
        let none = try Self.worker(
            try await attack.send(.itil, "GET", path, query: long), request: longRequest, info: info)
        #expect(
            Harness.text(try await attack.send(.itil, "GET", "\(Self.base)/worker/\(none)"))
                == Self.workerBody(none, request: longRequest, info: info, spans: nil))

        func refusal(_ query: [(String, String)], item: String = Self.database) async throws -> String {
            let response = try await attack.send(.itil, "GET", "\(Self.base)/ci/\(item)/schedule", query: query)
            #expect(response.statusCode == 400)
            return Harness.text(response)
        }
        #expect(
            try await refusal([])
                == ChangeManagementAPITests.error(
                    "Missing duration_in_seconds", "give duration_in_seconds, the number of seconds the change takes"))
        #expect(
            try await refusal([("duration_in_seconds", "2h")])
                == ChangeManagementAPITests.error(
                    "Invalid duration_in_seconds", "'2h' is not a whole number of seconds from 1 to 7776000"))
        #expect(
            try await refusal([("duration_in_seconds", "60"), ("planned_start_time", "tomorrow")])
                == ChangeManagementAPITests.error(
                    "Invalid planned_start_time", "'tomorrow' is not a date-time as yyyy-MM-dd HH:mm:ss (UTC)"))
        let nowhere = String(repeating: "0", count: 32)
        #expect(
            try await refusal([("duration_in_seconds", "60")], item: nowhere)
                == ChangeManagementAPITests.error(
                    "Invalid cmdb_ci sys_id", "no configuration item \(nowhere) that itil can read"))
        let missing = try await attack.send(.itil, "GET", "\(Self.base)/worker/\(nowhere)")
        #expect(missing.statusCode == 404)

        // A user without roles: each route refuses.
        let employee = try await attack.send(.joe, "GET", path, query: query)
        #expect(employee.statusCode == 403)
        #expect(
            Harness.text(employee)
                == ChangeManagementAPITests.error(
                    "User Not Authorized",
                    "GET on the Change Management API needs one of the roles change_manager, itil, sn_change_read, "
                        + "admin"))
        #expect(try await attack.send(.joe, "GET", "\(Self.base)/worker/\(worker)").statusCode == 403)
        #expect(try await attack.send(.anonymous, "GET", path, query: query).statusCode == 401)
    }

    @Test func aChangesSlotsAreAsLongAsItsWindowInItsItemsMaintenanceWindows() async throws {
        let attack = try await AttackHarness()
        let change = try await Self.change(
            attack,
            #""short_description":"Patch the mail server","cmdb_ci":"\#(Self.mail)","#
                + #""start_date":"2026-12-07 10:00:00","end_date":"2026-12-07 12:00:00""#)
        let request = #"{"change_sys_id":"\#(change)","timezone":"GMT"}"#
        let worker = try Self.worker(
            try await attack.send(.itil, "GET", "\(Self.base)/\(change)/schedule"), request: request)
        // Saturday nights from 22:00 for two hours, but for the two in the year-end freeze; the change itself
        // does not stand in its own way.
        let saturdays = [
            "2026-12-12", "2026-12-19", "2027-01-09", "2027-01-16", "2027-01-23", "2027-01-30", "2027-02-06",
            "2027-02-13", "2027-02-20", "2027-02-27", "2027-03-06",
        ]
        let spans = saturdays.map { day -> (String, String) in
            let next = Timestamp.string(
                (ChangeSchedule.date(day + " 22:00:00") ?? Date()).addingTimeInterval(7200))
            return (day + " 22:00:00", next)
        }
        #expect(
            Harness.text(try await attack.send(.itil, "GET", "\(Self.base)/worker/\(worker)"))
                == Self.workerBody(worker, request: request, info: [], spans: spans))

        let unplanned = try await Self.change(attack, #""short_description":"Someday","cmdb_ci":"\#(Self.mail)""#)
        let noDates = try await attack.send(.itil, "GET", "\(Self.base)/\(unplanned)/schedule")
        #expect(noDates.statusCode == 400)
        #expect(
            Harness.text(noDates)
                == ChangeManagementAPITests.error(
                    "Invalid change request",
                    "the change request has no planned start and end dates (its end after its start)"))
        let noItem = try await Self.change(
            attack, #""short_description":"Somewhere","start_date":"2026-12-07 10:00:00","end_date":"2026-12-07 12:00:00""#)
        #expect(
            Harness.text(try await attack.send(.itil, "GET", "\(Self.base)/\(noItem)/schedule"))
                == ChangeManagementAPITests.error(
                    "Invalid change request", "the change request has no configuration item (cmdb_ci)"))
        let missing = try await attack.send(.itil, "GET", "\(Self.base)/\(String(repeating: "0", count: 32))/schedule")
        #expect(missing.statusCode == 404)
        let employee = try await attack.send(.joe, "GET", "\(Self.base)/\(change)/schedule")
        #expect(employee.statusCode == 403)
    }

    @Test func conflictCheckingFindsBlackoutsAndMissedMaintenanceWindows() async throws {
        let attack = try await AttackHarness()
        let frozen = try await Self.change(
            attack,
            #""short_description":"Move the mailboxes","cmdb_ci":"\#(Self.mail)","#
                + #""start_date":"2026-12-22 10:00:00","end_date":"2026-12-22 12:00:00""#)
        #expect(try await attack.send(.itil, "POST", "\(Self.base)/\(frozen)/conflict").statusCode == 200)
        let listed = try await attack.send(
            .admin, "GET", "/api/now/table/conflict",
            query: [
                ("sysparm_query", "change=\(frozen)^ORDERBYtype"),
                ("sysparm_fields", "type,schedule,configuration_item,conflicting_change"),
                ("sysparm_exclude_reference_link", "true"),
            ])
        #expect(
            Harness.text(listed)
                == #"{"result":[{"type":"blackout","schedule":"\#(Self.freeze)","configuration_item":"\#(Self.mail)","#
                + #""conflicting_change":""},{"type":"not_in_maintenance_window","schedule":"\#(Self.saturdays)","#
                + #""configuration_item":"\#(Self.mail)","conflicting_change":""}]}"#)
        #expect(
            try await ChangeConflictRiskTests.field(attack, "change_request", frozen, "outside_maintenance_schedule")
                == "true")
        #expect(try await ChangeConflictRiskTests.field(attack, "change_request", frozen, "conflict_status") == "Conflict")

        // Inside a Saturday night before the freeze: no conflict, and within the maintenance schedule.
        let saturday = try await Self.change(
            attack,
            #""short_description":"Restart the mail server","cmdb_ci":"\#(Self.mail)","#
                + #""start_date":"2026-12-12 23:00:00","end_date":"2026-12-13 01:00:00""#)
        #expect(try await attack.send(.itil, "POST", "\(Self.base)/\(saturday)/conflict").statusCode == 200)
        #expect(try await ChangeConflictRiskTests.conflictIDs(attack, saturday).isEmpty)
        #expect(
            try await ChangeConflictRiskTests.field(attack, "change_request", saturday, "conflict_status")
                == "No Conflict")
        #expect(
            try await ChangeConflictRiskTests.field(attack, "change_request", saturday, "outside_maintenance_schedule")
                == "false")
    }

    @Test func aSpanRepeatsUntilItsLastDay() throws {
        let start = try #require(ChangeSchedule.date("2026-01-03 22:00:00"))
        let until = try #require(ChangeSchedule.date("2026-01-18 00:00:00"))
        let span = ChangeSchedule.Span(
            start: start, end: start.addingTimeInterval(6 * 3600), period: 604_800, until: until)
        let windows = span.windows(from: start.addingTimeInterval(3600), to: start.addingTimeInterval(40 * 86_400))
        #expect(
            windows.map { Timestamp.string($0.start) } == [
                "2026-01-03 22:00:00", "2026-01-10 22:00:00", "2026-01-17 22:00:00",
            ])
    }

    /// The approvers of the change's approvals and their states, by approver.
    static func approvals(_ attack: AttackHarness, _ change: String) async throws -> String {
        Harness.text(
            try await attack.send(
                .admin, "GET", "/api/now/table/sysapproval_approver",
                query: [
                    ("sysparm_query", "sysapproval=\(change)^ORDERBYapprover.user_name"),
                    ("sysparm_fields", "approver.user_name,state,source_table,document_id"),
                ]))
    }

    @Test func movingANormalChangeIntoAssessAndAuthorizeRequestsItsApprovals() async throws {
        let attack = try await AttackHarness()
        let group = DemoData.sysID("sys_user_group", "Database")
        let change = try await Self.change(attack, #""short_description":"Add RAM","assignment_group":"\#(group)""#)
        let assessed = try await attack.send(.itil, "PATCH", "\(Self.base)/\(change)", body: #"{"state":"assess"}"#)
        #expect(assessed.statusCode == 200)
        #expect(Harness.text(assessed) == (try await ChangeManagementAPITests.pairs(attack.harness, "change_request", change)))
        #expect(try ChangeApprovalTests.approval(assessed) == "requested")
        func row(_ user: String, _ state: String = "requested") -> String {
            #"{"approver.user_name":"\#(user)","state":"\#(state)","source_table":"change_request","#
                + #""document_id":"\#(change)"}"#
        }
        // The technical approval: the Database group's manager.
        #expect(try await Self.approvals(attack, change) == #"{"result":[\#(row("charlie.whitherspoon"))]}"#)
        // The same request again moves nothing and asks no one again.
        #expect(
            try await attack.send(.itil, "PATCH", "\(Self.base)/\(change)", body: #"{"state":"assess"}"#).statusCode
                == 200)
        #expect(try await Self.approvals(attack, change) == #"{"result":[\#(row("charlie.whitherspoon"))]}"#)

        // Authorize: the change advisory board, each of its members.
        #expect(
            try await attack.send(.itil, "PATCH", "\(Self.base)/\(change)", body: #"{"state":"authorize"}"#)
                .statusCode == 200)
        #expect(
            try await Self.approvals(attack, change)
                == #"{"result":[\#(row("admin")),\#(row("charlie.whitherspoon")),\#(row("don.goodliffe"))]}"#)
        let approved = try await attack.send(
            .admin, "PATCH", "\(Self.base)/\(change)/approvals", body: #"{"state":"approved"}"#)
        #expect(try ChangeApprovalTests.approval(approved) == "requested")
        #expect(
            try await Self.approvals(attack, change)
                == #"{"result":[\#(row("admin", "approved")),\#(row("charlie.whitherspoon")),\#(row("don.goodliffe"))]}"#)

        // A user without roles cannot move it.
        let employee = try await attack.send(.joe, "PATCH", "\(Self.base)/\(change)", body: #"{"state":"new"}"#)
        #expect(employee.statusCode == 403)
    }

    @Test func firstAvailableMovesTheChangeIntoItsItemsFirstFreeSlot() async throws {
        let attack = try await AttackHarness()
        _ = try await Self.change(
            attack,
            #""short_description":"Reindex","cmdb_ci":"\#(Self.database)","start_date":"2027-01-04 00:00:00","#
                + #""end_date":"2027-01-04 01:00:00""#)
        let change = try await Self.change(
            attack,
            #""short_description":"Add RAM","cmdb_ci":"\#(Self.database)","start_date":"2026-12-24 10:00:00","#
                + #""end_date":"2026-12-24 11:00:00""#)
        let path = "\(Self.base)/\(change)/schedule/first_available"
        let body = #"{"duration_in_seconds":"7200","planned_start_time":"2026-12-24 00:00:00"}"#
        let request =
            #"{"change_sys_id":"\#(change)","duration_in_seconds":7200,"timezone":"GMT","#
            + #""planned_start_time":"2026-12-24 00:00:00"}"#
        func window() async throws -> String {
            Harness.text(
                try await attack.send(
                    .admin, "GET", "/api/now/table/change_request/\(change)",
                    query: [("sysparm_fields", "start_date,end_date")]))
        }
        let moved = #"{"result":{"start_date":"2027-01-04 01:00:00","end_date":"2027-01-04 03:00:00"}}"#

        // After the year-end freeze and the other change's hour on the database server.
        let worker = try Self.worker(
            try await attack.send(.itil, "PATCH", path, body: body), request: request, info: ["Change has been updated"])
        #expect(
            Harness.text(try await attack.send(.itil, "GET", "\(Self.base)/worker/\(worker)"))
                == Self.workerBody(worker, request: request, info: ["Change has been updated"], spans: nil))
        #expect(try await window() == moved)
        // The same request again: another worker, and the change keeps its slot.
        let again = try Self.worker(
            try await attack.send(.itil, "PATCH", path, body: body), request: request, info: ["Change has been updated"])
        #expect(again != worker)
        #expect(try await window() == moved)

        // No slot that long in 90 days: the change stays.
        let long = try Self.worker(
            try await attack.send(.itil, "PATCH", path, body: #"{"duration_in_seconds":7776000}"#),
            request: #"{"change_sys_id":"\#(change)","duration_in_seconds":7776000,"timezone":"GMT"}"#,
            info: ["No slots found for 90 days from now"])
        #expect(!long.isEmpty)
        #expect(try await window() == moved)

        func refusal(_ body: String, change: String = change) async throws -> String {
            let response = try await attack.send(
                .itil, "PATCH", "\(Self.base)/\(change)/schedule/first_available", body: body)
            #expect(response.statusCode == 400)
            return Harness.text(response)
        }
        #expect(
            try await refusal("{}")
                == ChangeManagementAPITests.error(
                    "Missing duration_in_seconds", "give duration_in_seconds, the number of seconds the change takes"))
        #expect(
            try await refusal(#"{"duration_in_seconds":60,"planned_start_time":"soon"}"#)
                == ChangeManagementAPITests.error(
                    "Invalid planned_start_time", "'soon' is not a date-time as yyyy-MM-dd HH:mm:ss (UTC)"))
        let bare = try await Self.change(attack, #""short_description":"No item""#)
        #expect(
            try await refusal(#"{"duration_in_seconds":60}"#, change: bare)
                == ChangeManagementAPITests.error(
                    "Invalid change request", "the change request has no configuration item (cmdb_ci)"))
        let missing = try await attack.send(
            .itil, "PATCH", "\(Self.base)/\(String(repeating: "0", count: 32))/schedule/first_available", body: body)
        #expect(missing.statusCode == 404)
        let employee = try await attack.send(.joe, "PATCH", path, body: body)
        #expect(employee.statusCode == 403)
        #expect(
            Harness.text(employee)
                == ChangeManagementAPITests.error(
                    "User Not Authorized",
                    "PATCH on the Change Management API needs one of the roles change_manager, itil, admin"))
        #expect(try await window() == moved)
    }
}
