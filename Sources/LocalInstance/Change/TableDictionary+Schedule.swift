/// The schedules that conflict checking and the Change Management API's schedule endpoints read
/// (``ChangeSchedule``), as a PDI's Change Management - Collision Detector has them: `cmn_schedule`, the condition
/// schedules that extend it (`cmn_schedule_condition`, and its `cmn_schedule_blackout` and
/// `cmn_schedule_maintenance`), their entries (`cmn_schedule_span`), and the API's asynchronous workers
/// (`chg_mgt_worker`).
extension TableDictionary {
    /// The tables, in the order the dictionary lists them.
    static let scheduleTables = [
        cmnSchedule, cmnScheduleCondition, cmnScheduleBlackout, cmnScheduleMaintenance, cmnScheduleSpan, chgMgtWorker,
    ]

    /// The fields of a schedule whose `type` is `type` by default.
    private static func scheduleFields(type: String? = nil) -> [FieldDefinition] {
        [
            FieldDefinition("name"),
            FieldDefinition("description"),
            FieldDefinition(
                "type", .choice,
                choices: [
                    FieldChoice("blackout", "Blackout"), FieldChoice("maintenance", "Maintenance"),
                    FieldChoice("excluded", "Excluded"),
                ], defaultValue: type),
            FieldDefinition("time_zone", label: "Time zone"),
        ]
    }

    /// `cmn_schedule`: a named schedule; its windows are its `cmn_schedule_span` entries.
    static let cmnSchedule = TableDefinition(
        name: "cmn_schedule", label: "Schedule", application: "Change", displayField: "name", fields: scheduleFields(),
        rules: TableRules(writeRole: "itil_admin"))

    /// The fields of a condition schedule whose `type` is `type` by default.
    private static func conditionFields(type: String? = nil) -> [FieldDefinition] {
        scheduleFields(type: type) + [
            FieldDefinition("applies_to", label: "Applies to", defaultValue: "cmdb_ci"),
            FieldDefinition("condition"),
        ]
    }

    /// `cmn_schedule_condition`: a schedule for the configuration items of the `applies_to` class that its
    /// `condition` (an encoded query) selects; every item of the class when it is empty.
    static let cmnScheduleCondition = TableDefinition(
        name: "cmn_schedule_condition", label: "Condition Schedule", displayField: "name", extends: "cmn_schedule",
        fields: conditionFields())

    /// `cmn_schedule_blackout`: the windows in which no change of the items it applies to should be made.
    static let cmnScheduleBlackout = TableDefinition(
        name: "cmn_schedule_blackout", label: "Blackout Schedule", displayField: "name",
        extends: "cmn_schedule_condition",
        fields: conditionFields(type: "blackout"))

    /// `cmn_schedule_maintenance`: the windows in which the changes of the items it applies to should be made.
    static let cmnScheduleMaintenance = TableDefinition(
        name: "cmn_schedule_maintenance", label: "Maintenance Schedule", displayField: "name",
        extends: "cmn_schedule_condition",
        fields: conditionFields(type: "maintenance"))

    /// `cmn_schedule_span`: one entry of a schedule, a window from `start_date_time` to `end_date_time` (UTC), once
    /// or repeated daily or weekly until `repeat_until` (a date; for ever when empty).
    static let cmnScheduleSpan = TableDefinition(
        name: "cmn_schedule_span", label: "Schedule Entry", application: "Change", displayField: "name",
        fields: [
            FieldDefinition("name"),
            FieldDefinition("schedule", .reference(table: "cmn_schedule")),
            FieldDefinition("start_date_time", .dateTime, label: "When"),
            FieldDefinition("end_date_time", .dateTime, label: "To"),
            FieldDefinition(
                "repeat_type", .choice,
                choices: [FieldChoice("", "Does not repeat"), FieldChoice("daily", "Daily"), FieldChoice("weekly", "Weekly")],
                defaultValue: ""),
            FieldDefinition("repeat_until", .date),
        ], rules: TableRules(writeRole: "itil_admin"))

    /// `chg_mgt_worker`: a request of the Change Management API that a worker answers (the schedule endpoints'):
    /// the `request` as JSON, its `state`, and, once complete, its `payload` and `messages` as JSON.
    static let chgMgtWorker = TableDefinition(
        name: "chg_mgt_worker", label: "Change Management Worker", application: "Change", displayField: "type",
        fields: [
            FieldDefinition("type", .choice, choices: [FieldChoice("schedule", "Schedule")]),
            FieldDefinition(
                "state", .integer,
                choices: [
                    FieldChoice("1", "Waiting"), FieldChoice("2", "In-Progress"), FieldChoice("3", "Complete"),
                    FieldChoice("4", "Error"),
                ], defaultValue: "1"),
            FieldDefinition("request"),
            FieldDefinition("payload"),
            FieldDefinition("messages"),
        ], rules: TableRules(readRole: "itil", writeRole: "admin"))
}
