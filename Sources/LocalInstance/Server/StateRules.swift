/// The platform's business rules on a task's state: closing a record makes it inactive and stamps when and by whom
/// it was resolved or closed; reopening makes it active again.
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
