import NowData

/// What an `ensure` step did to its record: its result (`steps.<id>`) and its progress line.
struct EnsureOutcome: Sendable {
    /// The decision, as `steps.<id>.result` names it.
    enum Result: String, Sendable, CaseIterable {
        case created, updated, unchanged, deleted, absent

        /// Whether the record was (or in a dry run would be) changed.
        var changed: Bool { self == .created || self == .updated || self == .deleted }
    }

    var result: Result
    var table: String
    /// The encoded query the record was looked for with.
    var query: String
    /// Why no record was looked for (`vars.names is empty: no record matches`): the match selects none, so nothing
    /// was asked of the instance; nil when the query was sent.
    var nothing: String?
    var sysID = ""
    /// The record's number or name, when it has one.
    var display: String?
    /// The record as the step leaves it (as found when unchanged or deleted); nil when absent.
    var record: NowRecord?
    /// The fields sent: every field of a created record, the differing ones of an updated record.
    var written: [String] = []
    /// For an update, each field sent: its stored value and the value sent.
    var changes: [(name: String, from: JSONValue, to: JSONValue)] = []

    /// `steps.<id>`: `result`, `changed`, `sys_id` (null when absent), `record`, `fields` and `changes`
    /// (`{field: {from, to}}`).
    var value: JSONValue {
        .object([
            "result": .string(result.rawValue), "changed": .bool(result.changed),
            "sys_id": result == .absent ? .null : .string(sysID), "record": record?.jsonValue ?? .null,
            "fields": .array(written.map(JSONValue.string)),
            "changes": .object(JSONObject(changes.map { ($0.name, ["from": $0.from, "to": $0.to] as JSONValue) })),
        ])
    }

    /// `updated sys_user_group Network (<sys_id>): description 'old' → 'new'`, `unchanged ...`, `would create ...
    /// (dry run)`, `absent: no sys_user_group record matches 'name=Old'`; when the match selects no record,
    /// `created ...: vars.names is empty: no record matches` and `absent from sys_user_group: vars.names is empty:
    /// no record matches`.
    func summary(dryRun: Bool) -> String {
        let name = display.map { "\(table) \($0) (\(sysID))" } ?? "\(table) \(sysID)"
        let mark = dryRun ? " (dry run)" : ""
        switch result {
        case .absent:
            if let nothing { return "absent from \(table): \(nothing)" }
            return "absent: no \(table) record matches \(query.isEmpty ? "with no condition" : "'\(query)'")"
        case .unchanged:
            return "unchanged \(name)"
        case .created:
            return (dryRun ? "would create " : "created ") + name + mark + (nothing.map { ": " + $0 } ?? "")
        case .deleted:
            return (dryRun ? "would delete " : "deleted ") + name + mark
        case .updated:
            let fields = changes.map { "\($0.name) \($0.from.brief) → \($0.to.brief)" }
            return (dryRun ? "would update " : "updated ") + name + ": " + fields.joined(separator: ", ") + mark
        }
    }
}
