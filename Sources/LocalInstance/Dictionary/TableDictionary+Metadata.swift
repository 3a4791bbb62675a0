extension TableDictionary {
    /// `sys_metadata`: the application files; as on the platform, the dictionary tables extend it, so that it
    /// lists every record of `sys_db_object`, `sys_dictionary`, `sys_documentation` and `sys_choice`.
    static let sysMetadata = TableDefinition(
        name: "sys_metadata", label: "Application File", displayField: "sys_id", fields: [])

    /// `sys_db_object`: one record per table (`name`, `label`, `super_class`: the parent table's record).
    static let sysDBObject = TableDefinition(
        name: "sys_db_object", label: "Table", displayField: "label", extends: "sys_metadata",
        fields: [
            FieldDefinition("name"),
            FieldDefinition("label"),
            FieldDefinition("super_class", .reference(table: "sys_db_object"), label: "Extends table"),
        ])

    /// `sys_dictionary`: one record per field, listed on the table that defines it, and one collection record
    /// (empty `element`) per table.
    static let sysDictionary = TableDefinition(
        name: "sys_dictionary", label: "Dictionary Entry", displayField: "column_label", extends: "sys_metadata",
        fields: [
            FieldDefinition("name", label: "Table"),
            FieldDefinition("element", label: "Column name"),
            FieldDefinition("column_label"),
            FieldDefinition("internal_type", label: "Type"),
            FieldDefinition("reference"),
            FieldDefinition("max_length", .integer),
            FieldDefinition("mandatory", .boolean),
            FieldDefinition("display", .boolean),
            FieldDefinition("default_value"),
            FieldDefinition("active", .boolean),
        ])

    /// `sys_documentation`: the labels of tables (empty `element`) and fields, in English, as the platform keeps
    /// them apart from `sys_dictionary`.
    static let sysDocumentation = TableDefinition(
        name: "sys_documentation", label: "Field Label", displayField: "label", extends: "sys_metadata",
        fields: [
            FieldDefinition("name", label: "Table"),
            FieldDefinition("element"),
            FieldDefinition("label"),
            FieldDefinition("plural"),
            FieldDefinition("hint"),
            FieldDefinition("language"),
        ])

    /// `sys_choice`: the entries of the choice lists, by table and field.
    static let sysChoice = TableDefinition(
        name: "sys_choice", label: "Choice", displayField: "label", extends: "sys_metadata",
        fields: [
            FieldDefinition("name", label: "Table"),
            FieldDefinition("element"),
            FieldDefinition("value"),
            FieldDefinition("label"),
            FieldDefinition("sequence", .integer),
            FieldDefinition("inactive", .boolean),
            FieldDefinition("language"),
        ], rules: TableRules(writeRole: "admin"))

    /// The tables generated from the dictionary itself.
    static let metadataTableNames: Set<String> = [
        sysMetadata.name, sysDBObject.name, sysDictionary.name, sysDocumentation.name, sysChoice.name,
    ]

    /// The generated tables that are read-only. `sys_choice` takes writes, as on the platform (clients add and
    /// remove choices); its generated entries are made again on every start, the others are kept.
    static let readOnlyTableNames: Set<String> = metadataTableNames.subtracting([sysChoice.name])
}

extension TableDictionary {
    /// `sys_tiny_url`: the long URLs `POST /api/now/tinyurl` shortened, by their `tiny_url` key.
    static let sysTinyURL = TableDefinition(
        name: "sys_tiny_url", label: "Tiny URL", displayField: "tiny_url",
        fields: [
            FieldDefinition("tiny_url"),
            FieldDefinition("data", label: "URL"),
        ], rules: TableRules(writeRole: "admin"))
}
