import NowData

/// The one place a write applies the table's rules (``TableRules``, as ``TableDictionary/rules(of:)`` gives them
/// with what the table inherits): auto-numbering, a standard-change template's values, the opening stamps, the
/// fields that default to the user, the incident priority lookup, the state model's refusals, the state's effects and the values the platform moves on
/// at once; once an update is stored, a change's approvals. Fields the write sets itself are left alone.
/// (`sys_script` abort rules run after the write, in `TableAPIHandler+BusinessRules.swift`.)
extension TableAPIHandler {
    /// The rules of an insert, on `record` (defaults, the write's `given` fields and the system fields) before it
    /// is stored.
    func applyInsertRules(
        _ table: TableDefinition, _ record: inout StoredRecord, given: StoredRecord, timestamp: String,
        userSysID: String, _ db: SQLiteConnection
    ) throws {
        let rules = dictionary.rules(of: table.name)
        if rules.fillsFromTemplate == true {
            record.merge(try templateValues(table, given, db)) { _, new in new }
        }
        if table.numberPrefix != nil, (record["number"] ?? "").isEmpty {
            record["number"] = try store.nextNumber(table, db)
        }
        if rules.stampsOpening == true {
            if table.field("opened_at") != nil, (record["opened_at"] ?? "").isEmpty { record["opened_at"] = timestamp }
            if table.field("opened_by") != nil, (record["opened_by"] ?? "").isEmpty { record["opened_by"] = userSysID }
        }
        // A default: the write's own value, an empty one too, stays.
        for name in rules.userDefaults ?? [] where table.field(name) != nil && given[name] == nil {
            record[name] = userSysID
        }
        if rules.priorityFromImpactAndUrgency == true, given["priority"] == nil {
            record["priority"] = Self.priority(impact: record["impact"], urgency: record["urgency"]) ?? ""
        }
        if let effects = rules.stateEffects {
            record.merge(
                Self.stateEffects(
                    effects, table, record: record, given: given, timestamp: timestamp, userSysID: userSysID)
            ) { _, new in new }
        }
        record.merge(Self.automaticValues(rules, given: given)) { _, new in new }
    }

    /// The rules of an update of `current` (the stored record, of its own table) by `changes`, which they extend;
    /// throws the state model's refusal.
    func applyUpdateRules(
        _ table: TableDefinition, current: StoredRecord, _ changes: inout StoredRecord, timestamp: String,
        userName: String, _ db: SQLiteConnection
    ) throws {
        let rules = dictionary.rules(of: table.name)
        if rules.priorityFromImpactAndUrgency == true, changes["priority"] == nil,
            changes["impact"] != nil || changes["urgency"] != nil
        {
            let merged = current.merging(changes) { _, new in new }
            changes["priority"] = Self.priority(impact: merged["impact"], urgency: merged["urgency"])
        }
        if let state = changes["state"], state != current["state"] {
            let merged = current.merging(changes) { _, new in new }
            if let model = rules.stateModel,
                let refusal = Self.refusal(model, table, from: current["state"], to: state, record: merged)
            {
                throw refusal
            }
            if let effects = rules.stateEffects {
                let given = changes
                changes.merge(
                    Self.stateEffects(
                        effects, table, record: merged, given: given, timestamp: timestamp,
                        userSysID: try userSysID(userName, db) ?? "")
                ) { _, new in new }
            }
        }
        changes.merge(Self.automaticValues(rules, given: changes)) { _, new in new }
    }

    /// The rules that run once the update of `current` (the stored record before it, of its own table) by `changes`
    /// is stored, as the platform's after business rules do: a change request's move into a state its model asks
    /// approvals for requests them (``TableRules/requestsModelApprovals``).
    func applyAfterUpdateRules(
        _ table: TableDefinition, current: StoredRecord, _ changes: StoredRecord, timestamp: String,
        userName: String, _ db: SQLiteConnection
    ) throws {
        if dictionary.rules(of: table.name).requestsModelApprovals == true, let state = changes["state"],
            state != current["state"]
        {
            try requestModelApprovals(table, sysID: current["sys_id"] ?? "", timestamp: timestamp, userName: userName, db)
        }
    }

    /// The incident priority the platform's lookup gives for an impact and an urgency (1-3 each): 1 Critical to
    /// 5 Planning.
    static func priority(impact: String?, urgency: String?) -> String? {
        guard let impact = impact.flatMap({ Int($0) }), let urgency = urgency.flatMap({ Int($0) }),
            (1...3).contains(impact), (1...3).contains(urgency)
        else { return nil }
        return String(impact + urgency - 1)
    }

    /// The refusal of a state change `model` does not allow, in the platform's words; nil when it is allowed.
    /// `record` is the record as the write leaves it (a change request's model follows its `type`).
    private static func refusal(
        _ model: TableRules.StateModel, _ table: TableDefinition, from current: String?, to state: String,
        record: StoredRecord
    ) -> TableAPIError? {
        guard let current, current != state else { return nil }
        switch model {
        case .transitions(let transitions):
            guard let allowed = transitions[current], !allowed.contains(state) else { return nil }
            return TableAPIError(
                status: 403, message: "Operation Failed",
                detail: "\(table.label) state transition from state \(current) to \(state) is not possible")
        case .byField(let name, let models):
            let type = record[name] ?? ""
            guard let allowed = models[type]?[current], !allowed.contains(state) else { return nil }
            let field = table.field("state")
            func label(_ value: String) -> String { field?.choiceLabel(for: value) ?? value }
            return TableAPIError(
                status: 403, message: "Operation Failed",
                detail: "State Model for \(type) changes does not allow the state to change from \(label(current)) to "
                    + "\(label(state))")
        }
    }

    /// The fields to set because the record's state is `record["state"]` (see ``TableRules/StateEffects``).
    ///
    /// - Parameters:
    ///   - record: the record after the client's changes.
    ///   - given: the fields the client set, which are left alone.
    private static func stateEffects(
        _ effects: TableRules.StateEffects, _ table: TableDefinition, record: StoredRecord, given: StoredRecord,
        timestamp: String, userSysID: String
    ) -> StoredRecord {
        guard let state = record["state"] else { return [:] }
        var result = StoredRecord()
        func set(_ field: String, _ value: String, onlyIfEmpty: Bool) {
            guard table.field(field) != nil, given[field] == nil else { return }
            if onlyIfEmpty, !(record[field] ?? "").isEmpty { return }
            result[field] = value
        }
        set("active", effects.inactive.contains(state) ? "false" : "true", onlyIfEmpty: false)
        if effects.resolved.contains(state) {
            set("resolved_at", timestamp, onlyIfEmpty: true)
            set("resolved_by", userSysID, onlyIfEmpty: true)
        }
        if effects.closed.contains(state) {
            set("closed_at", timestamp, onlyIfEmpty: true)
            set("closed_by", userSysID, onlyIfEmpty: true)
        }
        return result
    }

    /// The values the platform moves on to from those the write sets (see ``TableRules/automaticValues``).
    private static func automaticValues(_ rules: TableRules, given: StoredRecord) -> StoredRecord {
        var result = StoredRecord()
        for (field, moves) in rules.automaticValues ?? [:] {
            if let value = given[field], let next = moves[value] { result[field] = next }
        }
        return result
    }

    /// The values of the standard-change template a new change names (`std_change_producer_version`), for the
    /// fields the write does not set: the template's `field=value` conditions, field by field.
    private func templateValues(_ table: TableDefinition, _ changes: StoredRecord, _ db: SQLiteConnection) throws
        -> StoredRecord
    {
        guard table.field("std_change_producer_version") != nil, let version = changes["std_change_producer_version"],
            !version.isEmpty, let versions = dictionary.table("std_change_producer_version"),
            let template = try store.fetch(versions, sysID: version, db)?["template"], !template.isEmpty,
            let query = try? EncodedQuery.parse(template)
        else { return [:] }
        var values = StoredRecord()
        for case .condition(let condition) in query.groups.flatMap(\.clauses).flatMap(\.terms)
        where condition.op == .equals && changes[condition.field] == nil {
            guard let field = table.field(condition.field), !TableDefinition.systemFieldNames.contains(field.name),
                field.storedValue(condition.value) != nil
            else { continue }
            values[field.name] = condition.value
        }
        return values
    }
}
