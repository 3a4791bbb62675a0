/// The import set tables: the import sets, their rows' base table, the demo staging tables, and the transform
/// maps with their field map entries (``TransformMap`` declares the demo's).
extension TableDictionary {
    /// The role that loads and transforms import sets (with `admin`): the Import Set API's.
    static let importRole = "import_transformer"

    static let importSetTables = [
        sysImportSet, sysMultiImportSet, sysImportSetRow, sysTransformMap, sysTransformEntry, incidentImportTable,
        serverImportTable,
    ]

    /// `sys_import_set`: one load of rows into a staging table.
    static let sysImportSet = TableDefinition(
        name: "sys_import_set", label: "Import Set", application: "System Import Sets",
        displayField: "number", numberPrefix: "ISET",
        fields: [
            FieldDefinition("number"),
            FieldDefinition("table_name", label: "Import set table"),
            FieldDefinition(
                "state", .choice,
                choices: [
                    FieldChoice("loading", "Loading"), FieldChoice("loaded", "Loaded"),
                    FieldChoice("processed", "Processed"), FieldChoice("cancelled", "Cancelled"),
                ], defaultValue: "loading"),
            FieldDefinition(
                "mode", .choice,
                choices: [FieldChoice("synchronous", "Synchronous"), FieldChoice("asynchronous", "Asynchronous")],
                defaultValue: "asynchronous"),
            FieldDefinition("multi_import_set", .reference(table: "sys_multi_import_set")),
            FieldDefinition("short_description"),
        ], rules: TableRules(readRole: importRole, writeRole: importRole))

    /// `sys_multi_import_set`: the import sets of one `insertMultiple` request.
    static let sysMultiImportSet = TableDefinition(
        name: "sys_multi_import_set", label: "Multi Import Set", application: "System Import Sets",
        displayField: "sys_id",
        fields: [FieldDefinition("table_name", label: "Import set table")],
        rules: TableRules(readRole: importRole, writeRole: importRole))

    /// `sys_import_set_row`: what every staging row holds besides its own fields, the outcome of its transform.
    static let sysImportSetRow = TableDefinition(
        name: "sys_import_set_row", label: "Import Set Row", application: "System Import Sets",
        displayField: "sys_import_row",
        fields: importRowFields, rules: TableRules(readRole: importRole, writeRole: importRole))

    private static let importRowFields = [
        FieldDefinition("sys_import_set", .reference(table: "sys_import_set"), label: "Set"),
        FieldDefinition("sys_import_row", .integer, label: "Row"),
        FieldDefinition(
            "sys_import_state", .choice, label: "State",
            choices: [
                FieldChoice("pending", "Pending"), FieldChoice("inserted", "Inserted"),
                FieldChoice("updated", "Updated"), FieldChoice("ignored", "Ignored"), FieldChoice("error", "Error"),
            ], defaultValue: "pending"),
        FieldDefinition("sys_import_state_comment", label: "Comment"),
        FieldDefinition("sys_transform_map", .reference(table: "sys_transform_map"), label: "Transform map"),
        FieldDefinition("sys_target_table", label: "Target table"),
        FieldDefinition("sys_target_sys_id", label: "Target record"),
    ]

    /// `sys_transform_map`.
    static let sysTransformMap = TableDefinition(
        name: "sys_transform_map", label: "Table Transform Map", application: "System Import Sets",
        displayField: "name",
        fields: [
            FieldDefinition("name"),
            FieldDefinition("source_table"),
            FieldDefinition("target_table"),
            FieldDefinition("active", .boolean, defaultValue: "true"),
            FieldDefinition("run_business_rules", .boolean, defaultValue: "true"),
        ], rules: TableRules(readRole: importRole, writeRole: "admin"))

    /// `sys_transform_entry`: one field map entry of a transform map.
    static let sysTransformEntry = TableDefinition(
        name: "sys_transform_entry", label: "Field Map", application: "System Import Sets",
        displayField: "target_field",
        fields: [
            FieldDefinition("map", .reference(table: "sys_transform_map")),
            FieldDefinition("source_field"),
            FieldDefinition("target_field"),
            FieldDefinition("coalesce", .boolean, defaultValue: "false"),
        ], rules: TableRules(readRole: importRole, writeRole: "admin"))

    /// `u_incident_import`: incidents from a monitoring tool (``TransformMap/incidentImport``).
    static let incidentImportTable = TableDefinition(
        name: "u_incident_import", label: "Incident Import", displayField: "u_short_description",
        extends: "sys_import_set_row",
        fields: importRowFields + [
            FieldDefinition("u_correlation_id", label: "Correlation ID"),
            FieldDefinition("u_short_description"),
            FieldDefinition("u_description"),
            FieldDefinition("u_caller"),
            FieldDefinition("u_category"),
            FieldDefinition("u_impact"),
            FieldDefinition("u_urgency"),
            FieldDefinition("u_assignment_group"),
        ])

    /// `u_cmdb_ci_server_import`: servers from an inventory (``TransformMap/serverImport``).
    static let serverImportTable = TableDefinition(
        name: "u_cmdb_ci_server_import", label: "Server Import", displayField: "u_name",
        extends: "sys_import_set_row",
        fields: importRowFields + [
            FieldDefinition("u_name"),
            FieldDefinition("u_serial_number"),
            FieldDefinition("u_ip_address", label: "IP address"),
            FieldDefinition("u_os", label: "OS"),
            FieldDefinition("u_os_version", label: "OS version"),
            FieldDefinition("u_cpu_count", label: "CPU count"),
            FieldDefinition("u_ram", label: "RAM"),
            FieldDefinition("u_classification"),
            FieldDefinition("u_short_description"),
        ])
}
