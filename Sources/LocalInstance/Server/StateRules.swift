/// The platform's business rules on a task's state: the state models' allowed changes (problem, change request),
/// closing a record makes it inactive and stamps when and by whom it was resolved or closed; reopening makes it
/// active again.
enum StateRules {
    private struct Rule {
        var inactiveStates: Set<String>
        var resolvedStates: Set<String>
        var closedStates: Set<String>
    }

    private static let rules: [String: Rule] = [
        "incident": Rule(inactiveStates: ["7", "8"], resolvedStates: ["6", "7"], closedStates: ["7"]),
        "problem": Rule(inactiveStates: ["107"], resolvedStates: ["106", "107"], closedStates: ["107"]),
        "change_request": Rule(inactiveStates: ["3", "4"], resolvedStates: [], closedStates: ["3", "4"]),
        "task": Rule(inactiveStates: ["3", "4", "7"], resolvedStates: [], closedStates: ["3", "4", "7"]),
    ]

    /// The state changes the platform's state models allow, by table and current state (a change to the same
    /// state is always allowed; a table or a state not listed allows any). The problem state model: New and Assess
    /// go on to Root Cause Analysis, Fix in Progress leads to Resolved, and a problem can be closed (canceled, or
    /// closed as a duplicate) from any open state.
    private static let transitions: [String: [String: Set<String>]] = [
        "problem": [
            "101": ["102", "103", "107"], "102": ["101", "103", "107"], "103": ["102", "104", "106", "107"],
            "104": ["103", "106", "107"], "106": ["103", "104", "107"], "107": ["103"],
        ]
    ]

    /// The change request state models, by `type` and current state: the `ChangeRequestStateModel_normal` and
    /// `_standard` script includes' moves (state values: -5 New, -4 Assess, -3 Authorize, -2 Scheduled,
    /// -1 Implement, 0 Review, 3 Closed, 4 Canceled). A normal change goes New, Assess, Authorize, Scheduled,
    /// Implement, Review, Closed (Assess and Authorize may go back to New, Assess straight to Scheduled); an
    /// emergency one skips Assess; a standard one goes New, Scheduled, Implement, Review, Closed. Every open state
    /// can be canceled; Closed and Canceled are final. A change of another type (or none) has no model.
    private static let changeTransitions: [String: [String: Set<String>]] = [
        "normal": [
            "-5": ["-4", "4"], "-4": ["-5", "-3", "-2", "4"], "-3": ["-5", "-2", "4"], "-2": ["-1", "4"],
            "-1": ["0", "4"], "0": ["3", "4"], "3": [], "4": [],
        ],
        "emergency": [
            "-5": ["-3", "4"], "-3": ["-5", "-2", "4"], "-2": ["-1", "4"], "-1": ["0", "4"], "0": ["3", "4"],
            "3": [], "4": [],
        ],
        "standard": [
            "-5": ["-2", "4"], "-2": ["-1", "4"], "-1": ["0", "4"], "0": ["3", "4"], "3": [], "4": [],
        ],
    ]

    /// The refusal of a state change the table's state model does not allow, in the platform's words; nil when it
    /// is allowed. `record` is the record as the write leaves it (a change request's model follows its `type`).
    static func refusal(table: TableDefinition, from current: String?, to state: String, record: StoredRecord)
        -> TableAPIError?
    {
        guard let current, current != state else { return nil }
        if table.name == "change_request" {
            let type = record["type"] ?? ""
            guard let allowed = changeTransitions[type]?[current], !allowed.contains(state) else { return nil }
            let field = table.field("state")
            func label(_ value: String) -> String { field?.choiceLabel(for: value) ?? value }
            return TableAPIError(
                status: 403, message: "Operation Failed",
                detail: "State Model for \(type) changes does not allow the state to change from \(label(current)) to "
                    + "\(label(state))")
        }
        guard let allowed = transitions[table.name]?[current], !allowed.contains(state) else { return nil }
        return TableAPIError(
            status: 403, message: "Operation Failed",
            detail: "\(table.label) state transition from state \(current) to \(state) is not possible")
    }

    /// The request states the catalog's request flow moves on from at once, by table: a request submitted with no
    /// approval to wait for is in process (servicenow.itsm's `catalog_request` target sets `submitted` and reads
    /// back `in_process`).
    private static let automaticStates: [String: [String: String]] = [
        "sc_request": ["submitted": "in_process"]
    ]

    /// The `request_state` a write leaves once the flow has moved it on, when it sets one the flow moves on from.
    static func requestState(table: TableDefinition, given: StoredRecord) -> String? {
        guard let state = given["request_state"] else { return nil }
        return automaticStates[table.name]?[state]
    }

    /// The fields to set because `state` became `record["state"]`; fields the client set itself are left alone.
    ///
    /// - Parameters:
    ///   - record: the record after the client's changes.
    ///   - given: the fields the client set.
    static func consequences(
        table: TableDefinition, record: StoredRecord, given: StoredRecord, timestamp: String, userSysID: String
    ) -> StoredRecord {
        guard let rule = rules[table.name], let state = record["state"] else { return [:] }
        var result = StoredRecord()
        func set(_ field: String, _ value: String, onlyIfEmpty: Bool) {
            guard table.field(field) != nil, given[field] == nil else { return }
            if onlyIfEmpty, !(record[field] ?? "").isEmpty { return }
            result[field] = value
        }
        set("active", rule.inactiveStates.contains(state) ? "false" : "true", onlyIfEmpty: false)
        if rule.resolvedStates.contains(state) {
            set("resolved_at", timestamp, onlyIfEmpty: true)
            set("resolved_by", userSysID, onlyIfEmpty: true)
        }
        if rule.closedStates.contains(state) {
            set("closed_at", timestamp, onlyIfEmpty: true)
            set("closed_by", userSysID, onlyIfEmpty: true)
        }
        return result
    }
}
