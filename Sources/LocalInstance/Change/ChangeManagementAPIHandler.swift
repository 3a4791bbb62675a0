import Foundation
import NowData

/// The Change Management API (`/api/sn_chg_rest[/v1]/change...`), a thin layer over the Table API on
/// `change_request`, `change_task`, `chg_model` and `std_change_record_producer` and over the ``ChangeModel``s:
///
/// - `GET /change`, `/change/normal|standard|emergency`: the changes (of that type), with `sysparm_query`,
///   `sysparm_limit`, `sysparm_offset` and `field=value` filters; `GET .../{sys_id}`: one (404 when it is not of
///   the type).
/// - `POST /change` (with `chg_model`, a model's name or sys_id, or `type`; Normal without either),
///   `POST /change/normal`, `/change/emergency`, and `POST /change/standard/{template_sys_id}` (from a
///   `std_change_record_producer`: the change takes its current version's values): creates one change, 200.
/// - `PATCH /change[/{type}]/{sys_id}`: updates it; a new `state` (a value or a label, `assess`) must be a
///   transition of the change's model whose conditions the change meets, else 400 `Change Request cannot move to
///   state: <state>` with the conditions in `detail`. `GET .../{sys_id}/nextstates`: those transitions.
/// - `DELETE /change[/{type}]/{sys_id}`: deletes it and answers it as it was.
/// - `GET|POST /change/{sys_id}/task`, `GET|PATCH|DELETE /change/{sys_id}/task/{task_sys_id}`: its change tasks.
/// - `PATCH /change/{sys_id}/approvals` with `state` `approved` or `rejected`: the current user's requested
///   approvals of the change (`sysapproval_approver`) take it, and the change's `approval` follows them.
/// - `POST|GET|DELETE /change/{sys_id}/conflict`: checks the change's scheduling conflicts (``ChangeConflict``) at
///   once, answers the last check and its `conflict` records; there is never a check running to cancel.
/// - `PATCH /change[/standard]/{sys_id}/risk`: sets the change's risk and impact (``ChangeRiskCondition``).
/// - `GET /change/{sys_id}/schedule`, `GET /change/ci/{cmdb_ci_sys_id}/schedule`, `GET /change/worker/{sys_id}`:
///   the next available slots (``ChangeSchedule``), through a worker; `PATCH /change/{sys_id}/schedule/first_available`
///   moves the change's planned window to the first.
/// - `GET /change/model[/{sys_id}]`, `GET /change/standard/template[/{sys_id}]`: models and templates.
///
/// Every record is answered with each field a `{display_value, value}` pair (``FieldValuePairs``). The API's roles
/// come first (GET: `change_manager`, `itil`, `sn_change_read`; POST and PATCH: `change_manager`, `itil`;
/// DELETE: `change_manager`; `admin` always), then the tables' own through the Table API. A move into a state the
/// model asks approvals for requests them, as every write of a change does (``TableRules/requestsModelApprovals``).
/// Not modelled: risk assessments, CI associations and impacted services (400 `Requested URI does not represent
/// any resource`).
struct ChangeManagementAPIHandler: Sendable {
    let tables: TableAPIHandler

    /// The segments after `change` of a path of the API (`/api/sn_chg_rest[/v1|v2]/change...`), or nil.
    static func route(_ path: String) -> [String]? {
        var parts = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard parts.count >= 3, parts[0] == "api", parts[1] == "sn_chg_rest" else { return nil }
        parts.removeFirst(2)
        if parts[0] == "v1" || parts[0] == "v2" { parts.removeFirst() }
        guard parts.first == "change" else { return nil }
        return Array(parts.dropFirst())
    }

    private static let types: Set<String> = ["normal", "standard", "emergency"]
    static let readRoles = ["change_manager", "itil", "sn_change_read"]
    static let writeRoles = ["change_manager", "itil"]
    static let deleteRoles = ["change_manager"]

    /// The answer to a request of the user `access` is for, on the segments after `change`.
    func handle(_ request: NowHTTPRequest, segments: [String], as access: AccessPolicy.Access) throws(TableAPIError)
        -> NowHTTPResponse
    {
        let method = request.method.uppercased()
        do {
            try authorize(method, access)
            return try route(method, segments, request, access)
        } catch let error as TableAPIError {
            throw error
        } catch {
            tables.log("local instance: \(method) \(request.path) failed: \(error)")
            throw .internalFailure
        }
    }

    /// Refuses a user without the API's roles for `method`.
    private func authorize(_ method: String, _ access: AccessPolicy.Access) throws {
        let roles =
            switch method {
            case "GET": Self.readRoles
            case "DELETE": Self.deleteRoles
            default: Self.writeRoles
            }
        try authorize("\(method) on the Change Management API", roles, access)
    }

    /// Refuses a user without one of `roles` (or `admin`): 403 `User Not Authorized`, saying what (`request`)
    /// needs which roles.
    func authorize(_ request: String, _ roles: [String], _ access: AccessPolicy.Access) throws {
        guard try !access.holdsAny(roles) else { return }
        throw TableAPIError(
            status: 403, message: "User Not Authorized",
            detail: "\(request) needs one of the roles " + (roles + ["admin"]).joined(separator: ", "))
    }

    private func route(_ method: String, _ segments: [String], _ request: NowHTTPRequest, _ access: AccessPolicy.Access)
        throws -> NowHTTPResponse
    {
        let first = segments.first ?? ""
        let second = segments.count > 1 ? segments[1] : ""
        let isType = Self.types.contains(first)
        switch (method, segments.count) {
        case ("GET", 0): return try listChanges(request, type: nil, access)
        case ("POST", 0): return try createChange(request, type: nil, access)
        case ("GET", 1) where first == "model": return try list("chg_model", request, access)
        case ("GET", 2) where first == "model": return try one("chg_model", second, request, access)
        case ("GET", 2) where first == "standard" && second == "template":
            return try list("std_change_record_producer", request, access)
        case ("GET", 3) where first == "standard" && second == "template":
            return try one("std_change_record_producer", segments[2], request, access)
        case ("POST", 2) where first == "standard": return try createStandardChange(request, second, access)
        case ("GET", 1) where isType: return try listChanges(request, type: first, access)
        case ("POST", 1) where first == "normal" || first == "emergency":
            return try createChange(request, type: first, access)
        case (_, 2) where isType: return try change(method, second, type: first, request, access)
        case (_, 1) where !isType && first != "model": return try change(method, first, type: nil, request, access)
        case ("GET", 2) where first == "worker": return try worker(second, request, access)
        case ("GET", 3) where first == "ci" && segments[2] == "schedule": return try itemSchedule(second, request, access)
        case ("PATCH", 3) where second == "schedule" && segments[2] == "first_available":
            return try firstAvailable(first, request, access)
        case ("GET", 2) where second == "schedule": return try changeSchedule(first, request, access)
        case ("GET", 2) where second == "nextstates": return try nextStates(first, request, access)
        case ("PATCH", 2) where second == "approvals": return try approve(first, request, access)
        case ("POST", 2) where second == "conflict": return try checkConflicts(first, request, access)
        case ("GET", 2) where second == "conflict": return try conflicts(first, request, access)
        case ("DELETE", 2) where second == "conflict":
            _ = try storedChange(first, type: nil, request, access)
            return NowHTTPResponse(statusCode: 200)
        case ("PATCH", 2) where second == "risk": return try assessRisk(first, type: nil, request, access)
        case ("PATCH", 3) where first == "standard" && segments[2] == "risk":
            return try assessRisk(second, type: first, request, access)
        case ("GET", 2) where second == "task": return try listTasks(first, request, access)
        case ("POST", 2) where second == "task": return try createTask(first, request, access)
        case (_, 3) where second == "task": return try task(method, first, segments[2], request, access)
        default: throw TableAPIError.unknownResource
        }
    }

    // MARK: - Changes

    private func listChanges(_ request: NowHTTPRequest, type: String?, _ access: AccessPolicy.Access) throws
        -> NowHTTPResponse
    {
        try list("change_request", request, access, condition: type.map { "type=\($0)" })
    }

    /// GET, PATCH or DELETE of one change (of `type`, when the path names one).
    private func change(
        _ method: String, _ sysID: String, type: String?, _ request: NowHTTPRequest, _ access: AccessPolicy.Access
    ) throws -> NowHTTPResponse {
        let stored = try storedChange(sysID, type: type, request, access)
        switch method {
        case "GET": return try one("change_request", sysID, request, access)
        case "PATCH": return try update(stored, sysID, request, access)
        case "DELETE":
            let answer = try one("change_request", sysID, request, access)
            _ = try tables.subRequest("DELETE", "/api/now/table/change_request/\(sysID)", for: request, as: access)
            return answer
        default: throw TableAPIError.methodNotSupported(method)
        }
    }

    /// The change as stored, once the Table API has shown that the user may read it; 404 when there is none, or
    /// it is not of `type`.
    func storedChange(_ sysID: String, type: String?, _ request: NowHTTPRequest, _ access: AccessPolicy.Access)
        throws -> StoredRecord
    {
        _ = try tables.subRequest(
            "GET", "/api/now/table/change_request/\(sysID)", [URLQueryItem(name: "sysparm_fields", value: "sys_id")],
            for: request, as: access)
        guard let table = tables.dictionary.table("change_request"),
            let stored = try tables.database.read({ db in try tables.store.fetch(table, sysID: sysID, db) }),
            type == nil || stored["type"] == type
        else { throw TableAPIError.noRecord }
        return stored
    }

    /// Creates a change of `type` (or of the body's model or type) from the request's values.
    private func createChange(_ request: NowHTTPRequest, type: String?, _ access: AccessPolicy.Access) throws
        -> NowHTTPResponse
    {
        var values = try Self.values(request)
        let model: ChangeModel
        if let type, let fixed = ChangeModel.model(ofType: type) {
            model = fixed
        } else if let name = values["chg_model"]?.string, !name.isEmpty {
            guard let named = ChangeModel.model(named: name) ?? ChangeModel.all.first(where: { $0.sysID == name })
            else {
                throw TableAPIError(
                    status: 400, message: "Invalid change model",
                    detail: "'\(name)' is no change model: give one of "
                        + ChangeModel.all.map(\.name).joined(separator: ", "))
            }
            model = named
        } else if let given = values["type"]?.string, !given.isEmpty {
            guard let typed = ChangeModel.all.first(where: { $0.type == given.lowercased() }) else {
                throw TableAPIError(
                    status: 400, message: "Invalid type",
                    detail: "'\(given)' is no change type: give one of normal, standard, emergency")
            }
            model = typed
        } else {
            model = ChangeModel.all.first(where: \.isDefault) ?? ChangeModel.normal
        }
        values["chg_model"] = .string(model.sysID)
        if type != nil || values["type"]?.string?.isEmpty ?? true { values["type"] = .string(model.type) }
        values["type"] = values["type"].map { .string(($0.string ?? "").lowercased()) }
        return try create(values, request, access)
    }

    /// Creates a standard change from the template `templateID` (a `std_change_record_producer`), with the
    /// request's values except those a template keeps (description and plans).
    private func createStandardChange(_ request: NowHTTPRequest, _ templateID: String, _ access: AccessPolicy.Access)
        throws -> NowHTTPResponse
    {
        let template = try TableAPIHandler.result(
            of: try tables.subRequest(
                "GET", "/api/now/table/std_change_record_producer/\(templateID)",
                [
                    URLQueryItem(name: "sysparm_fields", value: "current_version,active"),
                    URLQueryItem(name: "sysparm_exclude_reference_link", value: "true"),
                ], for: request, as: access))
        guard case .string(let version) = template.object?["current_version"] ?? .null, !version.isEmpty,
            template.object?["active"] != .string("false")
        else {
            throw TableAPIError(
                status: 400, message: "Invalid standard change template",
                detail: "the template \(templateID) is inactive or has no published version")
        }
        var values = try Self.values(request)
        for kept in ["description", "backout_plan", "test_plan", "implementation_plan"] { values[kept] = nil }
        values["std_change_producer_version"] = .string(version)
        values["type"] = .string("standard")
        values["chg_model"] = .string(ChangeModel.standard.sysID)
        return try create(values, request, access)
    }

    private func create(_ values: JSONObject, _ request: NowHTTPRequest, _ access: AccessPolicy.Access) throws
        -> NowHTTPResponse
    {
        let created = try tables.subRequest(
            "POST", "/api/now/table/change_request", FieldValuePairs.tableParameters, for: request, as: access,
            body: .object(values))
        return try answer(FieldValuePairs.record(TableAPIHandler.result(of: created), of: table("change_request")))
    }

    /// Updates the change with the request's values, refusing a state its model does not let it move to.
    private func update(
        _ stored: StoredRecord, _ sysID: String, _ request: NowHTTPRequest, _ access: AccessPolicy.Access
    ) throws -> NowHTTPResponse {
        var values = try Self.values(request)
        if let given = values["state"] {
            let state = try Self.stateValue(given)
            values["state"] = .string(state)
            if state != stored["state"], let model = ChangeModel.model(of: stored) {
                var next = stored
                for (name, value) in values { next[name] = value.string ?? next[name] }
                try checkMove(next, from: stored["state"] ?? "", to: state, model)
            }
        }
        let updated = try tables.subRequest(
            "PATCH", "/api/now/table/change_request/\(sysID)", FieldValuePairs.tableParameters, for: request,
            as: access, body: .object(values))
        return try answer(FieldValuePairs.record(TableAPIHandler.result(of: updated), of: table("change_request")))
    }

    /// A `state` given as a value (`-4`) or a label in any case (`assess`), as its value.
    private static func stateValue(_ given: JSONValue) throws -> String {
        let text =
            switch given {
            case .string(let text): text
            case .number(let number): number.description
            default: ""
            }
        let states = TableDictionary.changeStates
        if let state = states.first(where: { $0.value == text || $0.label.lowercased() == text.lowercased() }) {
            return state.value
        }
        throw TableAPIError(
            status: 400, message: "Change Request cannot move to state: \(text.lowercased())",
            detail: "'\(text)' is no change request state: give one of "
                + states.map { "\($0.value) (\($0.label))" }.joined(separator: ", "))
    }

    /// Refuses a move from `from` to `to` that `model` has no transition for, or whose conditions `change` (as
    /// it would be) does not meet: 400 `Change Request cannot move to state: <state>`.
    private func checkMove(_ change: StoredRecord, from: String, to: String, _ model: ChangeModel) throws {
        let message = "Change Request cannot move to state: \(Self.label(to).lowercased())"
        let transitions = model.transitions(from: from).filter { $0.to == to }
        guard !transitions.isEmpty else {
            let next = model.transitions(from: from).map { Self.label($0.to) }
            throw TableAPIError(
                status: 400, message: message,
                detail: "The \(model.name) change model has no transition from \(Self.label(from)) to "
                    + "\(Self.label(to)); from \(Self.label(from)) a change can move to: "
                    + (next.isEmpty ? "nothing" : next.joined(separator: ", ")))
        }
        let tasks = try activeTasks(change["sys_id"] ?? "")
        guard !transitions.contains(where: { $0.conditions.allSatisfy { $0.isMet(by: change, activeTasks: tasks) } })
        else { return }
        let conditions = transitions[0].conditions.map {
            "\($0.name): " + ($0.isMet(by: change, activeTasks: tasks) ? "passed" : "not passed")
        }
        throw TableAPIError(
            status: 400, message: message,
            detail: "Transition conditions from \(Self.label(from)) to \(Self.label(to)): "
                + conditions.joined(separator: "; "))
    }

    /// The number of the change's active change tasks.
    private func activeTasks(_ sysID: String) throws -> Int {
        let tasks = try table("change_task")
        return try tables.database.read { db in
            try tables.store.count(tasks, where: "\"change_request\" = ? AND \"active\" = 1", [.text(sysID)], db)
        }
    }

    /// `GET /change/{sys_id}/nextstates`: the states the change can move to now, and every transition out of its
    /// state with its conditions.
    private func nextStates(_ sysID: String, _ request: NowHTTPRequest, _ access: AccessPolicy.Access) throws
        -> NowHTTPResponse
    {
        let stored = try storedChange(sysID, type: nil, request, access)
        let state = stored["state"] ?? ""
        let tasks = try activeTasks(sysID)
        var available: [JSONValue] = []
        var transitions: [JSONValue] = []
        var labels: JSONObject = [:]
        for transition in ChangeModel.model(of: stored)?.transitions(from: state) ?? [] {
            let passed = transition.conditions.map { $0.isMet(by: stored, activeTasks: tasks) }
            let isAvailable = !passed.contains(false)
            if isAvailable { available.append(.string(transition.to)) }
            labels[transition.to] = .string(Self.label(transition.to))
            let conditions = zip(transition.conditions, passed).map { condition, passed -> JSONValue in
                [
                    "passed": .bool(passed),
                    "condition": [
                        "name": .string(condition.name), "description": .null,
                        "sys_id": .string(DemoData.sysID("chg_model_condition", condition.name)),
                    ],
                ]
            }
            transitions.append([
                [
                    "sys_id": .string(DemoData.sysID("chg_model_transition", "\(transition.from):\(transition.to)")),
                    "display_value": .string("\(Self.label(transition.from)) to \(Self.label(transition.to))"),
                    "from_state": .string(transition.from), "to_state": .string(transition.to),
                    "transition_available": .bool(isAvailable), "automatic_transition": false,
                    "conditions": .array(conditions),
                ]
            ])
        }
        available.append(.string(state))
        labels[state] = .string(Self.label(state))
        return try answer([
            "available_states": .array(available), "state_transitions": .array(transitions),
            "state_label": .object(labels),
        ])
    }

    /// `PATCH /change/{sys_id}/approvals` with `state` `approved` or `rejected` (and `comments`, which a rejection
    /// needs): the current user's requested approvals of the change (`sysapproval_approver`) take that state, and
    /// the change's `approval` follows all of its approvals (``approval(of:)``); 400 when the user has none to act on.
    private func approve(_ sysID: String, _ request: NowHTTPRequest, _ access: AccessPolicy.Access) throws
        -> NowHTTPResponse
    {
        _ = try storedChange(sysID, type: nil, request, access)
        let values = try Self.values(request)
        guard let state = values["state"]?.string, ["approved", "rejected"].contains(state) else {
            throw TableAPIError(
                status: 400, message: "Invalid approval state", detail: "give 'state': approved or rejected")
        }
        let comments = values["comments"]?.string ?? ""
        guard state == "approved" || !comments.isEmpty else {
            throw TableAPIError(
                status: 400, message: "Comments are required", detail: "a rejection needs 'comments' saying why")
        }
        let approvals = try table("sysapproval_approver")
        let changes = try table("change_request")
        let timestamp = Timestamp.string(tables.now())
        try tables.database.write { db in
            let user = try tables.userSysID(access.userName, db) ?? ""
            let mine = try tables.store.select(
                approvals, where: "\"sysapproval\" = ? AND \"approver\" = ? AND \"state\" = 'requested'",
                [.text(sysID), .text(user)], orderBy: "\"sys_created_on\"", limit: -1, offset: 0, db)
            guard !mine.isEmpty else {
                throw TableAPIError(
                    status: 400, message: "No approval to act on",
                    detail: "\(access.userName) has no requested approval of this change request")
            }
            var update: StoredRecord = ["state": state]
            if !comments.isEmpty { update["comments"] = comments }
            for approval in mine {
                _ = try tables.updateRecord(
                    approvals, sysID: approval["sys_id"] ?? "", update, by: access.userName, timestamp, db)
            }
            let all = try tables.store.select(
                approvals, where: "\"sysapproval\" = ?", [.text(sysID)], orderBy: "\"sys_id\"", limit: -1,
                offset: 0, db)
            _ = try tables.updateRecord(
                changes, sysID: sysID, ["approval": Self.approval(of: all.map { $0["state"] ?? "" })],
                by: access.userName, timestamp, db)
        }
        return try one("change_request", sysID, request, access)
    }

    /// A change's `approval` from the states of its approvals: rejected when one is, approved when every one that
    /// still counts (not cancelled, no longer required or a duplicate) is and one is, else requested.
    static func approval(of states: [String]) -> String {
        if states.contains("rejected") { return "rejected" }
        let counted = states.filter { !["cancelled", "not_required", "duplicate"].contains($0) }
        return !counted.isEmpty && counted.allSatisfy { $0 == "approved" } ? "approved" : "requested"
    }

    // MARK: - Conflicts and risk

    /// `POST /change/{sys_id}/conflict`: checks the change's conflicts (``ChangeConflict``) at once, replacing its
    /// `conflict` records and setting its `conflict_status` and `conflict_last_run`; answers the run's id. 400 when
    /// the change has no planned start and end dates.
    private func checkConflicts(_ sysID: String, _ request: NowHTTPRequest, _ access: AccessPolicy.Access) throws
        -> NowHTTPResponse
    {
        let stored = try storedChange(sysID, type: nil, request, access)
        guard !(stored["start_date"] ?? "").isEmpty, !(stored["end_date"] ?? "").isEmpty else {
            throw TableAPIError(
                status: 400, message: "Conflict checking cannot start",
                detail: "the change request has no planned start and end dates")
        }
        let changes = try table("change_request")
        let records = try table("conflict")
        let timestamp = Timestamp.string(tables.now())
        try tables.database.write { db in
            let user = try tables.userSysID(access.userName, db) ?? ""
            for old in try tables.store.select(
                records, where: "\"change\" = ?", [.text(sysID)], orderBy: "", limit: -1, offset: 0, db)
            {
                _ = try tables.deleteRecord(records, sysID: old["sys_id"] ?? "", by: access.userName, db)
            }
            let schedules = try ChangeSchedule.schedules(
                of: stored["cmdb_ci"] ?? "", tables.dictionary, tables.store, tables.translator, db)
            let found = try ChangeConflict.conflicts(of: stored, in: changes, schedules: schedules, tables.store, db)
            for conflict in found {
                _ = try tables.insertRecord(
                    records,
                    [
                        "change": sysID, "conflicting_change": conflict.conflictingChange,
                        "configuration_item": conflict.configurationItem, "schedule": conflict.schedule,
                        "type": conflict.type, "last_checked": timestamp,
                    ], by: access.userName, userSysID: user, timestamp, db)
            }
            let outside = found.contains { $0.type == "not_in_maintenance_window" }
            _ = try tables.updateRecord(
                changes, sysID: sysID,
                [
                    "conflict_status": found.isEmpty ? "No Conflict" : "Conflict", "conflict_last_run": timestamp,
                    "outside_maintenance_schedule": outside ? "true" : "false",
                ], by: access.userName, timestamp, db)
        }
        return try answer(.string(NowTableService.makeSysID()))
    }

    /// `GET /change/{sys_id}/conflict`: the outcome of the change's last check (its `conflict_status`, `last_run`,
    /// `record_count` the configuration items checked, `job_status` 2 once a check ran) and its `conflict` records
    /// as pairs.
    private func conflicts(_ sysID: String, _ request: NowHTTPRequest, _ access: AccessPolicy.Access) throws
        -> NowHTTPResponse
    {
        let stored = try storedChange(sysID, type: nil, request, access)
        let listed = try tables.subRequest(
            "GET", "/api/now/table/conflict",
            FieldValuePairs.tableParameters + [
                URLQueryItem(name: "sysparm_query", value: "change=\(sysID)^ORDERBYconflicting_change")
            ], for: request, as: access)
        let lastRun = stored["conflict_last_run"] ?? ""
        return try answer([
            "status": .string(stored["conflict_status"].flatMap { $0.isEmpty ? nil : $0 } ?? "Not Run"),
            "last_run": .string(lastRun),
            "record_count": .string((stored["cmdb_ci"] ?? "").isEmpty ? "0" : "1"),
            "job_status": .string(lastRun.isEmpty ? "" : "2"),
            "conflicts": FieldValuePairs.records(TableAPIHandler.result(of: listed), of: table("conflict")),
        ])
    }

    /// `PATCH /change[/standard]/{sys_id}/risk`: sets the change's `risk` and `impact` from the first
    /// ``ChangeRiskCondition`` it meets, through the Table API, and answers the change.
    private func assessRisk(
        _ sysID: String, type: String?, _ request: NowHTTPRequest, _ access: AccessPolicy.Access
    ) throws -> NowHTTPResponse {
        let condition = ChangeRiskCondition.condition(for: try storedChange(sysID, type: type, request, access))
        let updated = try tables.subRequest(
            "PATCH", "/api/now/table/change_request/\(sysID)", FieldValuePairs.tableParameters, for: request,
            as: access, body: ["risk": .string(condition.risk), "impact": .string(condition.impact)])
        return try answer(FieldValuePairs.record(TableAPIHandler.result(of: updated), of: table("change_request")))
    }

    // MARK: - Tasks

    private func listTasks(_ sysID: String, _ request: NowHTTPRequest, _ access: AccessPolicy.Access) throws
        -> NowHTTPResponse
    {
        _ = try storedChange(sysID, type: nil, request, access)
        return try list("change_task", request, access, condition: "change_request=\(sysID)")
    }

    private func createTask(_ sysID: String, _ request: NowHTTPRequest, _ access: AccessPolicy.Access) throws
        -> NowHTTPResponse
    {
        _ = try storedChange(sysID, type: nil, request, access)
        var values = try Self.values(request)
        values["change_request"] = .string(sysID)
        values["parent"] = .string(sysID)
        let created = try tables.subRequest(
            "POST", "/api/now/table/change_task", FieldValuePairs.tableParameters, for: request, as: access,
            body: .object(values))
        return try answer(FieldValuePairs.record(TableAPIHandler.result(of: created), of: table("change_task")))
    }

    /// GET, PATCH or DELETE of one of the change's tasks: 404 when the task is not the change's.
    private func task(
        _ method: String, _ sysID: String, _ taskID: String, _ request: NowHTTPRequest, _ access: AccessPolicy.Access
    ) throws -> NowHTTPResponse {
        _ = try storedChange(sysID, type: nil, request, access)
        let tasks = try table("change_task")
        guard try tables.database.read({ db in try tables.store.fetch(tasks, sysID: taskID, db) })?["change_request"]
            == sysID
        else { throw TableAPIError.noRecord }
        let path = "/api/now/table/change_task/\(taskID)"
        switch method {
        case "GET": return try one("change_task", taskID, request, access)
        case "PATCH":
            let updated = try tables.subRequest(
                "PATCH", path, FieldValuePairs.tableParameters, for: request, as: access,
                body: .object(try Self.values(request)))
            return try answer(FieldValuePairs.record(TableAPIHandler.result(of: updated), of: tasks))
        case "DELETE":
            let answer = try one("change_task", taskID, request, access)
            _ = try tables.subRequest("DELETE", path, for: request, as: access)
            return answer
        default: throw TableAPIError.methodNotSupported(method)
        }
    }

    // MARK: - Support

    /// The records of `tableName` the request's `sysparm_query`, `field=value` filters and `condition` select,
    /// with its `sysparm_limit` and `sysparm_offset`.
    private func list(
        _ tableName: String, _ request: NowHTTPRequest, _ access: AccessPolicy.Access, condition: String? = nil
    ) throws -> NowHTTPResponse {
        var parts = condition.map { [$0] } ?? []
        var items = FieldValuePairs.tableParameters
        for item in request.queryItems {
            switch item.name {
            case "sysparm_query": if let query = item.value, !query.isEmpty { parts.append(query) }
            case "sysparm_limit", "sysparm_offset": items.append(item)
            case let name where !name.hasPrefix("sysparm_"): parts.append("\(name)=\(item.value ?? "")")
            default: break
            }
        }
        if !parts.isEmpty { items.append(URLQueryItem(name: "sysparm_query", value: parts.joined(separator: "^"))) }
        let listed = try tables.subRequest("GET", "/api/now/table/\(tableName)", items, for: request, as: access)
        return try answer(FieldValuePairs.records(TableAPIHandler.result(of: listed), of: table(tableName)))
    }

    private func one(_ tableName: String, _ sysID: String, _ request: NowHTTPRequest, _ access: AccessPolicy.Access)
        throws -> NowHTTPResponse
    {
        let record = try tables.subRequest(
            "GET", "/api/now/table/\(tableName)/\(sysID)", FieldValuePairs.tableParameters, for: request, as: access)
        return try answer(FieldValuePairs.record(TableAPIHandler.result(of: record), of: table(tableName)))
    }

    func answer(_ result: JSONValue) throws -> NowHTTPResponse {
        NowHTTPResponse(
            statusCode: 200, headers: tables.jsonHeaders, body: JSONValue.object(["result": result]).jsonData())
    }

    func table(_ name: String) throws -> TableDefinition {
        guard let table = tables.dictionary.table(name) else { throw TableAPIError.invalidTable(name) }
        return table
    }

    /// The label of a change request state.
    private static func label(_ state: String) -> String {
        TableDictionary.changeStates.first { $0.value == state }?.label ?? state
    }

    /// The values a create or an update sets: the request's `field=value` query parameters, overridden by its
    /// JSON body's members; `encrypted_fields` is dropped (values are kept as given).
    static func values(_ request: NowHTTPRequest) throws(TableAPIError) -> JSONObject {
        var values = JSONObject()
        for item in request.queryItems where !item.name.hasPrefix("sysparm_") {
            values[item.name] = .string(item.value ?? "")
        }
        if let body = request.body, !body.isEmpty {
            try TableAPIHandler.requireJSON(request)
            guard case .object(let members) = (try? JSONValue(json: body)) ?? .null else {
                throw TableAPIError.invalidBody
            }
            for (name, value) in members { values[name] = value }
        }
        values["encrypted_fields"] = nil
        return values
    }
}
