/// What the platform does on a table's records besides storing them, declared beside the table's definition
/// (``TableDefinition/rules``): the roles a read and a write need, the state model, what a state change sets, values
/// the platform moves on at once, the incident priority lookup, the opening stamps, the fields that default to the
/// user, standard-change templates and a change's approvals.
///
/// A table takes every rule it does not declare from the table it extends, and so on up (`incident` takes `task`'s
/// write role and opening stamps, and declares its own state effects); ``TableDictionary/rules(of:)`` gives the
/// rules in force. Auto-numbering is the definition's `numberPrefix`, and `sys_script` abort rules are records,
/// not declarations; `TableAPIHandler` applies all of them in one place (`TableAPIHandler+Rules.swift`).
///
/// ```swift
/// TableRules(writeRole: "itil", stateEffects: StateEffects(inactive: ["3", "4", "7"], closed: ["3", "4", "7"]))
/// ```
struct TableRules: Sendable, Hashable {
    /// The role a user needs, besides `admin`, to read the table's records (the configured administrator always
    /// may); nil: any authenticated user, unless a parent table names one. ``AccessPolicy`` applies it.
    var readRole: String?
    /// The role a user needs, besides `admin`, to insert, update or delete the table's records (the configured
    /// administrator always may); nil: any authenticated user, unless a parent table names one.
    var writeRole: String?
    /// The state changes the platform refuses.
    var stateModel: StateModel?
    /// What a record's `state` sets: `active`, and the resolution and closing stamps.
    var stateEffects: StateEffects?
    /// Values the platform's flows move on from at once, by field: a write that sets `request_state` to
    /// `submitted` on a request leaves `in_process`.
    var automaticValues: [String: [String: String]]?
    /// Whether `priority` follows from `impact` and `urgency` (the platform's priority lookup), unless the write
    /// sets it.
    var priorityFromImpactAndUrgency: Bool?
    /// Whether an insert stamps `opened_at` (now) and `opened_by` (the session's user) when they are empty.
    var stampsOpening: Bool?
    /// The fields whose default is the session's user (the platform's `javascript:gs.getUserID()` default, such as
    /// `kb_knowledge.author`): an insert that does not set one sets it to the user who inserts.
    var userDefaults: Set<String>?
    /// Whether an insert that sets `std_change_producer_version` takes the values of that standard-change
    /// template (its `template`, `field=value^field=value`) for the fields the write does not set.
    var fillsFromTemplate: Bool?
    /// The field naming the table of the record each record is about (`sys_attachment.table_name`,
    /// `sys_audit.tablename`): ``AccessPolicy`` lets a record be read only by those who may read that table.
    var recordTableField: String?
    /// The field naming the user a record is for (`sysapproval_approver.approver`): a user without the table's
    /// ``readRole`` reads only the records that name them, as the platform's approver read ACL lets them; nil: the
    /// read role decides alone. ``AccessPolicy`` applies it.
    var ownerField: String?
    /// Whether an update that moves a change request into a state its model asks approvals for
    /// (``ChangeModel/approvals``) requests them, as the platform's approval engine does on every write of a change:
    /// a requested `sysapproval_approver` for each approver not already asked, and the change's `approval`
    /// requested.
    var requestsModelApprovals: Bool?

    /// These rules, with `parent`'s for every rule these do not declare.
    func inheriting(_ parent: TableRules) -> TableRules {
        TableRules(
            readRole: readRole ?? parent.readRole, writeRole: writeRole ?? parent.writeRole,
            stateModel: stateModel ?? parent.stateModel,
            stateEffects: stateEffects ?? parent.stateEffects,
            automaticValues: automaticValues ?? parent.automaticValues,
            priorityFromImpactAndUrgency: priorityFromImpactAndUrgency ?? parent.priorityFromImpactAndUrgency,
            stampsOpening: stampsOpening ?? parent.stampsOpening, userDefaults: userDefaults ?? parent.userDefaults,
            fillsFromTemplate: fillsFromTemplate ?? parent.fillsFromTemplate,
            recordTableField: recordTableField ?? parent.recordTableField, ownerField: ownerField ?? parent.ownerField,
            requestsModelApprovals: requestsModelApprovals ?? parent.requestsModelApprovals)
    }

    /// The scripted default the platform's dictionary gives `field` and these rules carry out on insert:
    /// `javascript:gs.getUserID()` for a field set to the session's user (``userDefaults``, and `opened_by` where
    /// the table ``stampsOpening``), `javascript:gs.nowDateTime()` for `opened_at` there; nil for any other field.
    func scriptedDefault(of field: String) -> String? {
        if userDefaults?.contains(field) == true { return "javascript:gs.getUserID()" }
        guard stampsOpening == true else { return nil }
        switch field {
        case "opened_by": return "javascript:gs.getUserID()"
        case "opened_at": return "javascript:gs.nowDateTime()"
        default: return nil
        }
    }

    /// What a record's `state` sets, as the platform's business rules do: a state in `inactive` makes the record
    /// inactive (any other active again); one in `resolved` stamps `resolved_at` and `resolved_by`, one in `closed`
    /// `closed_at` and `closed_by`, each when the table has the field, the record has no value yet and the write
    /// does not set it.
    struct StateEffects: Sendable, Hashable {
        var inactive: Set<String>
        var resolved: Set<String> = []
        var closed: Set<String>
    }

    /// The state changes a state model allows, by current state (a change to the same state is always allowed; a
    /// state not listed allows any).
    enum StateModel: Sendable, Hashable {
        /// One model: the allowed next states by current state. Refused with `<Label> state transition from state
        /// <from> to <to> is not possible`, as the problem state model words it.
        case transitions([String: Set<String>])
        /// One model per value of `field` (a change request's `type`); a value not listed has no model. Refused
        /// with `State Model for <type> changes does not allow the state to change from <From> to <To>` (the
        /// states' labels), as the change request state models word it.
        case byField(String, [String: [String: Set<String>]])
    }
}
