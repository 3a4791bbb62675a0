import Foundation
import NowData

/// The schedule endpoints of the Change Management API and their workers (`chg_mgt_worker`):
///
/// - `GET /change/{sys_id}/schedule`: the slots, as long as the change's planned window, from its planned start, in
///   which its configuration item has no blackout, is in its maintenance windows and has no other change;
/// - `GET /change/ci/{cmdb_ci_sys_id}/schedule?duration_in_seconds=...[&planned_start_time=...]`: the same for an
///   item and a duration, from the given start (UTC) or now;
/// - `PATCH /change/{sys_id}/schedule/first_available` with `{"duration_in_seconds":...[,"planned_start_time":...]}`:
///   sets the change's planned start and end to the first such slot of its item (from the given start, UTC, or
///   now), through the Table API; its worker says `Change has been updated`, or that no slot was found;
/// - `GET /change/worker/{sys_id}`: the worker, with its `payload.spans` once complete.
///
/// A schedule request answers 202 with its worker, whose link gives the slots (``ChangeSchedule/availableSlots``).
/// The slots are found as the request is made, so the worker is already Complete. The GETs need one of the roles
/// `change_manager`, `itil`, `sn_change_writer` (or `admin`); `first_available` the API's PATCH roles, and the
/// Table API's write access to the change.
extension ChangeManagementAPIHandler {
    static let scheduleRoles = writeRoles + ["sn_change_writer"]

    /// `GET /change/{sys_id}/schedule`: 400 when the change has no configuration item or planned window.
    func changeSchedule(_ sysID: String, _ request: NowHTTPRequest, _ access: AccessPolicy.Access) throws
        -> NowHTTPResponse
    {
        try authorize("A schedule request", Self.scheduleRoles, access)
        let stored = try storedChange(sysID, type: nil, request, access)
        guard let start = ChangeSchedule.date(stored["start_date"]), let end = ChangeSchedule.date(stored["end_date"]),
            end > start
        else {
            throw TableAPIError(
                status: 400, message: "Invalid change request",
                detail: "the change request has no planned start and end dates (its end after its start)")
        }
        let item = stored["cmdb_ci"] ?? ""
        guard !item.isEmpty else {
            throw TableAPIError(
                status: 400, message: "Invalid change request",
                detail: "the change request has no configuration item (cmdb_ci)")
        }
        let zone = try timeZone(access)
        return try schedule(
            item: item, duration: end.timeIntervalSince(start), from: start, excluding: sysID,
            request: ["change_sys_id": .string(sysID), "timezone": .string(zone.identifier)], request, access)
    }

    /// `GET /change/ci/{cmdb_ci_sys_id}/schedule`: 400 for an item the user cannot read, a missing or invalid
    /// `duration_in_seconds` (a whole number of seconds above 0) and an invalid `planned_start_time`.
    func itemSchedule(_ item: String, _ request: NowHTTPRequest, _ access: AccessPolicy.Access) throws
        -> NowHTTPResponse
    {
        try authorize("A schedule request", Self.scheduleRoles, access)
        do {
            _ = try tables.subRequest(
                "GET", "/api/now/table/cmdb_ci/\(item)", [URLQueryItem(name: "sysparm_fields", value: "sys_id")],
                for: request, as: access)
        } catch let error as TableAPIError where error.status == 404 {
            throw TableAPIError(
                status: 400, message: "Invalid cmdb_ci sys_id",
                detail: "no configuration item \(item) that \(access.userName) can read")
        }
        let duration = try Self.duration(request.queryItems.first { $0.name == "duration_in_seconds" }?.value ?? "")
        let plannedStart = request.queryItems.first { $0.name == "planned_start_time" }?.value ?? ""
        let from = try Self.plannedStart(plannedStart) ?? tables.now()
        let zone = try timeZone(access)
        return try schedule(
            item: item, duration: TimeInterval(duration), from: from, excluding: "",
            request: [
                "cmdb_ci_sys_id": .string(item), "planned_start_time": .string(plannedStart),
                "duration_in_seconds": .number(JSONNumber(duration)), "timezone": .string(zone.identifier),
            ], request, access)
    }

    /// Finds the item's slots, records them in a complete worker and answers 202 with it (without the slots).
    private func schedule(
        item: String, duration: TimeInterval, from: Date, excluding change: String, request asked: JSONObject,
        _ request: NowHTTPRequest, _ access: AccessPolicy.Access
    ) throws -> NowHTTPResponse {
        let timestamp = Timestamp.string(tables.now())
        let worker = try tables.database.write { db -> StoredRecord in
            let slots = try availableSlots(item: item, duration: duration, from: from, excluding: change, db)
            let info: [JSONValue] =
                slots.isEmpty
                ? [
                    .string(
                        "No time slot of \(Int(duration)) seconds is available in the \(ChangeSchedule.searchDays) "
                            + "days from \(Timestamp.string(from))")
                ] : []
            let payload: JSONValue = [
                "spans": .array(
                    slots.map { ["start": .string(Timestamp.string($0.start)), "end": .string(Timestamp.string($0.end))] })
            ]
            return try insertWorker(
                asked, payload: slots.isEmpty ? "" : Self.text(payload), info: info, access, timestamp, db)
        }
        return try accepted(worker, request, access)
    }

    /// `PATCH /change/{sys_id}/schedule/first_available`: 400 for a change without a configuration item, a missing
    /// or invalid `duration_in_seconds` and an invalid `planned_start_time`; the Table API's 403 when the user may
    /// not update the change.
    func firstAvailable(_ sysID: String, _ request: NowHTTPRequest, _ access: AccessPolicy.Access) throws
        -> NowHTTPResponse
    {
        let stored = try storedChange(sysID, type: nil, request, access)
        let body = try Self.values(request)
        let item = stored["cmdb_ci"] ?? ""
        guard !item.isEmpty else {
            throw TableAPIError(
                status: 400, message: "Invalid change request",
                detail: "the change request has no configuration item (cmdb_ci)")
        }
        let duration = try Self.duration(
            body["duration_in_seconds"].map { $0.string ?? String(decoding: $0.jsonData(), as: UTF8.self) } ?? "")
        let plannedStart = body["planned_start_time"]?.string ?? ""
        let from = try Self.plannedStart(plannedStart) ?? tables.now()
        let slot = try tables.database.read { db in
            try availableSlots(item: item, duration: TimeInterval(duration), from: from, excluding: sysID, db).first
        }
        if let slot {
            _ = try tables.subRequest(
                "PATCH", "/api/now/table/change_request/\(sysID)", [URLQueryItem(name: "sysparm_fields", value: "sys_id")],
                for: request, as: access,
                body: [
                    "start_date": .string(Timestamp.string(slot.start)),
                    "end_date": .string(Timestamp.string(slot.start.addingTimeInterval(TimeInterval(duration)))),
                ])
        }
        var asked: JSONObject = [
            "change_sys_id": .string(sysID), "duration_in_seconds": .number(JSONNumber(duration)),
            "timezone": .string(try timeZone(access).identifier),
        ]
        if !plannedStart.isEmpty { asked["planned_start_time"] = .string(plannedStart) }
        let info = slot == nil ? "No slots found for \(ChangeSchedule.searchDays) days from now" : "Change has been updated"
        let timestamp = Timestamp.string(tables.now())
        let worker = try tables.database.write { db in
            try insertWorker(asked, payload: "", info: [.string(info)], access, timestamp, db)
        }
        return try accepted(worker, request, access)
    }

    /// A `duration_in_seconds` as given: a whole number of seconds from 1 to the days searched.
    private static func duration(_ given: String) throws -> Int {
        guard !given.isEmpty else {
            throw TableAPIError(
                status: 400, message: "Missing duration_in_seconds",
                detail: "give duration_in_seconds, the number of seconds the change takes")
        }
        guard let duration = Int(given), duration > 0, duration <= ChangeSchedule.searchDays * 86_400 else {
            throw TableAPIError(
                status: 400, message: "Invalid duration_in_seconds",
                detail: "'\(given)' is not a whole number of seconds from 1 to \(ChangeSchedule.searchDays * 86_400)")
        }
        return duration
    }

    /// A `planned_start_time` as given (UTC); nil when none is.
    private static func plannedStart(_ given: String) throws -> Date? {
        guard !given.isEmpty else { return nil }
        guard let start = ChangeSchedule.date(given) else {
            throw TableAPIError(
                status: 400, message: "Invalid planned_start_time",
                detail: "'\(given)' is not a date-time as yyyy-MM-dd HH:mm:ss (UTC)")
        }
        return start
    }

    /// The slots of `duration` from `from` in which `item` has no blackout, is in its maintenance windows and has
    /// no active change but `change`.
    private func availableSlots(
        item: String, duration: TimeInterval, from: Date, excluding change: String, _ db: SQLiteConnection
    ) throws -> [DateInterval] {
        let changes = try table("change_request")
        let schedules = try ChangeSchedule.schedules(of: item, tables.dictionary, tables.store, tables.translator, db)
        let busy = try tables.store.select(
            changes, where: "\"cmdb_ci\" = ? AND \"sys_id\" <> ? AND \"active\" = 1", [.text(item), .text(change)],
            orderBy: "\"start_date\"", limit: -1, offset: 0, db
        ).compactMap { other -> DateInterval? in
            guard let start = ChangeSchedule.date(other["start_date"]),
                let end = ChangeSchedule.date(other["end_date"]), end > start
            else { return nil }
            return DateInterval(start: start, end: end)
        }
        return ChangeSchedule.availableSlots(duration: duration, from: from, schedules, busy: busy)
    }

    /// Records a complete schedule worker of the request `asked`, with its payload (JSON text, or empty) and info
    /// messages.
    private func insertWorker(
        _ asked: JSONObject, payload: String, info: [JSONValue], _ access: AccessPolicy.Access, _ timestamp: String,
        _ db: SQLiteConnection
    ) throws -> StoredRecord {
        let messages: JSONValue = ["errorMessages": [], "warningMessages": [], "infoMessages": .array(info)]
        return try tables.insertRecord(
            try table("chg_mgt_worker"),
            [
                "type": "schedule", "state": "3", "request": Self.text(.object(asked)), "payload": payload,
                "messages": Self.text(messages),
            ], by: access.userName, userSysID: try tables.userSysID(access.userName, db) ?? "", timestamp, db)
    }

    /// 202 with the worker, without its slots.
    private func accepted(_ worker: StoredRecord, _ request: NowHTTPRequest, _ access: AccessPolicy.Access) throws
        -> NowHTTPResponse
    {
        var answer = try workerResult(worker, request, access)
        answer["payload"] = nil
        return NowHTTPResponse(
            statusCode: 202, headers: tables.jsonHeaders, body: JSONValue.object(["result": .object(answer)]).jsonData())
    }

    /// `GET /change/worker/{sys_id}`: the worker as the Table API lets the user read it; 404 when there is none.
    func worker(_ sysID: String, _ request: NowHTTPRequest, _ access: AccessPolicy.Access) throws -> NowHTTPResponse {
        let read = try TableAPIHandler.result(
            of: try tables.subRequest(
                "GET", "/api/now/table/chg_mgt_worker/\(sysID)",
                [URLQueryItem(name: "sysparm_fields", value: "sys_id,type,state,request,payload,messages")],
                for: request, as: access))
        var record = StoredRecord()
        for (name, value) in read.object ?? [:] { record[name] = value.string ?? "" }
        return try answer(.object(try workerResult(record, request, access)))
    }

    /// A worker as the API answers it: its link, request, state, type, messages and, once it found slots, its
    /// `payload.spans`, each start and end with its value (UTC) and display value (in the user's zone).
    private func workerResult(_ worker: StoredRecord, _ request: NowHTTPRequest, _ access: AccessPolicy.Access) throws
        -> JSONObject
    {
        let sysID = worker["sys_id"] ?? ""
        let state = worker["state"] ?? "1"
        let states = tables.dictionary.table("chg_mgt_worker")?.field("state")
        var result: JSONObject = [
            "worker": [
                "sysId": .string(sysID), "link": .string("\(request.baseURL)/api/sn_chg_rest/change/worker/\(sysID)"),
            ],
            "request": .string(worker["request"] ?? ""),
            "state": [
                "value": JSONNumber(text: state).map(JSONValue.number) ?? .string(state),
                "display_value": .string(states?.choiceLabel(for: state) ?? state),
            ],
            "type": .string(worker["type"] ?? ""),
            "messages": (try? JSONValue(json: Data((worker["messages"] ?? "").utf8)))
                ?? ["errorMessages": [], "warningMessages": [], "infoMessages": []],
        ]
        guard let payload = try? JSONValue(json: Data((worker["payload"] ?? "").utf8)) else { return result }
        let dates = try userDates(access)
        func pair(_ value: JSONValue?) -> JSONValue {
            let text = value?.string ?? ""
            return ["value": .string(text), "display_value": .string(dates.display(text, type: .dateTime))]
        }
        result["payload"] = [
            "spans": .array(
                (payload.object?["spans"]?.array ?? []).map { span in
                    ["start": pair(span.object?["start"]), "end": pair(span.object?["end"])]
                })
        ]
        return result
    }

    /// The user's time zone (`sys_user.time_zone`), else the instance's.
    private func timeZone(_ access: AccessPolicy.Access) throws -> TimeZone {
        let name = try tables.database.read { db in try tables.store.user(named: access.userName, db)?.timeZone } ?? ""
        return (name.isEmpty ? nil : TimeZone(identifier: name)) ?? tables.systemTimeZone
    }

    /// How the user sees date-times.
    private func userDates(_ access: AccessPolicy.Access) throws -> UserDateDisplay {
        let user = try tables.database.read { db in try tables.store.user(named: access.userName, db) }
        return UserDateDisplay(
            timeZone: user?.timeZone ?? "", dateFormat: user?.dateFormat ?? "", systemTimeZone: tables.systemTimeZone)
    }

    private static func text(_ value: JSONValue) -> String {
        String(decoding: value.jsonData(), as: UTF8.self)
    }
}
