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
