/// The fields of a PDI's change requests and change tasks beyond the core ones declared with the tables
/// (docs/reference/pdi-fields/change_request.json and change_task.json).
extension TableDictionary {
    /// `change_request.category` as a PDI declares it: capitalized values, Other by default.
    static let changeCategory = FieldDefinition(
        "category", .choice,
        choices: [
            "Hardware", "Software", "Service", "System Software", "Applications Software", "Network", "Telecom",
            "Documentation", "Other",
        ].map { FieldChoice($0, $0) }, defaultValue: "Other")

    /// The other fields of `change_request`, and its priority (4 - Low by default, as a task's).
    static let pdiChangeRequestFields: [FieldDefinition] = [
        taskPriority,
        FieldDefinition("cab_date", .date, label: "CAB date"),
        FieldDefinition("cab_delegate", .reference(table: "sys_user"), label: "CAB delegate"),
        FieldDefinition("cab_recommendation", label: "CAB recommendation"),
        FieldDefinition("cab_required", .boolean, label: "CAB required", defaultValue: "false"),
        FieldDefinition("change_plan"),
        FieldDefinition("ci_class", label: "CI class", defaultValue: "cmdb_ci"),
        FieldDefinition("conflict_last_run", .dateTime),
        FieldDefinition(
            "conflict_status", .choice,
            choices: ["Not Run", "Conflict", "No Conflict"].map { FieldChoice($0, $0) }, defaultValue: "Not Run"),
        FieldDefinition("is_bulk", .boolean, label: "Bulk update", defaultValue: "false"),
        FieldDefinition("on_hold_task", label: "On hold tasks"),
        FieldDefinition("outside_maintenance_schedule", .boolean, defaultValue: "false"),
        FieldDefinition("phase", .choice, choices: [FieldChoice("requested", "Requested")], defaultValue: "requested"),
        FieldDefinition("phase_state", .choice, choices: [FieldChoice("open", "Open")], defaultValue: "open"),
        FieldDefinition("production_system", .boolean, defaultValue: "false"),
        FieldDefinition("proposed_change"),
        FieldDefinition("reason"),
        FieldDefinition("requested_by_date", .dateTime),
        FieldDefinition("review_comments"),
        FieldDefinition("review_date", .date),
        FieldDefinition("review_status", .integer),
        FieldDefinition("risk_impact_analysis"),
        FieldDefinition("risk_value"),
        FieldDefinition(
            "scope", .integer,
            choices: [
                FieldChoice("1", "Massive"), FieldChoice("2", "Large"), FieldChoice("3", "Medium"),
                FieldChoice("4", "Small"), FieldChoice("5", "Tiny"),
            ], defaultValue: "3"),
        FieldDefinition("unauthorized", .boolean, defaultValue: "false"),
        FieldDefinition("variables", defaultValue: "variable_pool"),
    ]

    /// The other fields of `change_task`, and its priority (4 - Low by default, as a task's).
    static let pdiChangeTaskFields: [FieldDefinition] = [
        taskPriority,
        FieldDefinition("created_from"),
    ]
}
