/// The parameters of `change` and `import` (the Change Management and Import Set APIs).
extension JobSchema {
    /// The parameters of `change`.
    static let changeParameters = SchemaMapping(
        "change",
        [
            SchemaKey(
                "template", .template,
                "A standard change template's name or sys_id: the change is a new standard change made from it."),
            SchemaKey("model", .template, "A change model's name (Normal, Emergency, Standard) or sys_id, instead."),
            SchemaKey("sys_id", .template, "An existing change's sys_id, instead of template or model."),
            SchemaKey(
                "fields", .fieldValues, role: .fieldValues,
                "Field values, written when the change is created (or first, with sys_id)."),
            SchemaKey(
                "states", .names,
                "States to move the change through, in order: new, assess, authorize, scheduled, implement, review, "
                    + "closed, canceled."),
        ])

    /// The parameters of `import`.
    static let importParameters = SchemaMapping(
        "import",
        [
            SchemaKey(
                "table", .template, required: true, role: .table,
                "The import set table (staging table), as u_cmdb_ci_server_import."),
            SchemaKey("file", .template, "A CSV file, relative to the job file; its first line names the columns."),
            SchemaKey("rows", .value, "A list of mappings of column values, instead of file."),
        ])
}
