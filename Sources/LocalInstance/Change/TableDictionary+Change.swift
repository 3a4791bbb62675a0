/// The Change Management tables beside `change_request`, `change_task`, `chg_model` and
/// `std_change_producer_version`: the standard change templates that the Change Management API lists and creates
/// changes from.
extension TableDictionary {
    /// `std_change_record_producer`: a standard change template; a change made from it takes the values of its
    /// `current_version` (a `std_change_producer_version`, whose `template` holds them).
    static let stdChangeRecordProducer = TableDefinition(
        name: "std_change_record_producer", label: "Standard Change Template", application: "Change",
        displayField: "name",
        fields: [
            FieldDefinition("name"),
            FieldDefinition("short_description"),
            FieldDefinition("description"),
            FieldDefinition("active", .boolean, defaultValue: "true"),
            FieldDefinition("category"),
            FieldDefinition(
                "current_version", .reference(table: "std_change_producer_version"), label: "Current version"),
            FieldDefinition("retired", .boolean, defaultValue: "false"),
        ], rules: TableRules(writeRole: "admin"))
}

extension TableDictionary {
    /// `conflict`: a scheduling conflict that conflict checking (`POST /api/sn_chg_rest/change/{sys_id}/conflict`,
    /// ``ChangeConflict``) found for a change, replaced at each check; the types are a PDI's. `schedule` is the
    /// blackout or maintenance schedule of a `blackout` or `not_in_maintenance_window` conflict.
    static let conflict = TableDefinition(
        name: "conflict", label: "Conflict", application: "Change", displayField: "change",
        fields: [
            FieldDefinition("change", .reference(table: "change_request")),
            FieldDefinition("conflicting_change", .reference(table: "change_request")),
            FieldDefinition("configuration_item", .reference(table: "cmdb_ci"), label: "Configuration item"),
            FieldDefinition("schedule", .reference(table: "cmn_schedule")),
            FieldDefinition(
                "type", .choice,
                choices: [
                    FieldChoice("blackout", "Inside Blackout Window"),
                    FieldChoice("ci_already_scheduled", "CI Already Scheduled"),
                    FieldChoice("parent_ci_already_scheduled", "Parent CI Already Scheduled"),
                    FieldChoice("child_ci_already_scheduled", "Child CI Already Scheduled"),
                    FieldChoice("not_in_maintenance_window", "Not In Maintenance Window"),
                    FieldChoice("assigned_to_already_scheduled", "Assigned to Already Scheduled"),
                ]),
            FieldDefinition("last_checked", .dateTime),
        ], rules: TableRules(writeRole: "admin"))
}
