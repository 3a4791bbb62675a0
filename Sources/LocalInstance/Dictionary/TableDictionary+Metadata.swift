extension TableDictionary {
    /// `sys_metadata`: the application files; as on the platform, the dictionary tables extend it, so that it
    /// lists every record of `sys_db_object`, `sys_dictionary`, `sys_documentation` and `sys_choice`.
    static let sysMetadata = TableDefinition(
        name: "sys_metadata", label: "Application File", application: "System Definition",
        displayField: "sys_id", fields: [])

    /// The fields sys_metadata gives the application files on a PDI (`sys_name`, `sys_scope`, ...) and `sys_tags`,
    /// declared on each table that answers them (the local `sys_metadata` declares none).
    static let sysMetadataFields: [FieldDefinition] = [
        FieldDefinition("sys_name", label: "Display name"),
        FieldDefinition("sys_package", .reference(table: "sys_package"), label: "Package"),
        FieldDefinition(
            "sys_policy", .choice, label: "Protection policy",
            choices: [FieldChoice("read", "Read-only"), FieldChoice("protected", "Protected")]),
        FieldDefinition("sys_scope", .reference(table: "sys_scope"), label: "Application"),
        FieldDefinition("sys_update_name", label: "Update name"),
        FieldDefinition("sys_tags"),
    ]

    /// `sys_db_object`: one record per table (`name`, `label`, `super_class`: the parent table's record), with the
    /// other fields of a PDI's (docs/reference/pdi-fields/sys_db_object.json).
    static let sysDBObject = TableDefinition(
        name: "sys_db_object", label: "Table", displayField: "label", extends: "sys_metadata",
        fields: [
            FieldDefinition("name"),
            FieldDefinition("label"),
            FieldDefinition("super_class", .reference(table: "sys_db_object"), label: "Extends table"),
            FieldDefinition("access", label: "Accessible from"),
            FieldDefinition("actions_access", .boolean, label: "Allow UI actions", defaultValue: "true"),
            FieldDefinition("alter_access", .boolean, label: "Allow configuration", defaultValue: "true"),
            FieldDefinition("client_scripts_access", .boolean, label: "Allow client scripts", defaultValue: "true"),
            FieldDefinition("configuration_access", .boolean, label: "Can configure", defaultValue: "false"),
            FieldDefinition("create_access", .boolean, label: "Can create", defaultValue: "true"),
            FieldDefinition("create_access_controls", .boolean, defaultValue: "false"),
            FieldDefinition("delete_access", .boolean, label: "Can delete", defaultValue: "false"),
            FieldDefinition("extension_model"),
            FieldDefinition("is_extendable", .boolean, label: "Extensible", defaultValue: "false"),
            FieldDefinition("live_feed_enabled", .boolean, defaultValue: "false"),
            FieldDefinition("number_ref", .reference(table: "sys_number"), label: "Auto number"),
            FieldDefinition("read_access", .boolean, label: "Can read", defaultValue: "true"),
            FieldDefinition("sys_class_code"),
            FieldDefinition("sys_class_path"),
            FieldDefinition("update_access", .boolean, label: "Can update", defaultValue: "true"),
            FieldDefinition("user_role", .reference(table: "sys_user_role")),
            FieldDefinition(
                "ws_access", .boolean, label: "Allow access to this table via web services", defaultValue: "true"),
        ] + sysMetadataFields)

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
            FieldDefinition("active", .boolean, defaultValue: "true"),
            // The other fields of a PDI's entries (docs/reference/pdi-fields/sys_dictionary.json).
            FieldDefinition("array", .boolean, defaultValue: "false"),
            FieldDefinition("attributes"),
            FieldDefinition("audit", .boolean, defaultValue: "false"),
            FieldDefinition("calculation"),
            FieldDefinition(
                "choice", .integer,
                choices: [
                    FieldChoice("0", "-- None --"), FieldChoice("1", "Dropdown with -- None --"),
                    FieldChoice("2", "Suggestion"),
                    FieldChoice("3", "Dropdown without -- None -- (must specify a default value)"),
                ]),
            FieldDefinition("choice_field"),
            FieldDefinition("choice_table"),
            FieldDefinition("comments"),
            FieldDefinition("create_roles"),
            FieldDefinition("defaultsort", label: "Default sort"),
            FieldDefinition("delete_roles"),
            FieldDefinition("dependent"),
            FieldDefinition("dependent_on_field"),
            FieldDefinition("dynamic_creation", .boolean, defaultValue: "false"),
            FieldDefinition("dynamic_creation_script"),
            FieldDefinition("dynamic_default_value"),
            FieldDefinition("dynamic_ref_qual"),
            FieldDefinition("element_reference", .boolean, defaultValue: "false"),
            FieldDefinition("foreign_database"),
            FieldDefinition("next_element"),
            FieldDefinition("primary", .boolean, defaultValue: "false"),
            FieldDefinition("read_only", .boolean, defaultValue: "false"),
            FieldDefinition("read_roles"),
            FieldDefinition("reference_cascade_rule"),
            FieldDefinition("reference_floats", .boolean, defaultValue: "false"),
            FieldDefinition("reference_key"),
            FieldDefinition("reference_qual"),
            FieldDefinition("reference_qual_condition"),
            FieldDefinition("reference_type"),
            FieldDefinition("sizeclass"),
            FieldDefinition("spell_check", .boolean, defaultValue: "false"),
            FieldDefinition("staged", .boolean, defaultValue: "false"),
            FieldDefinition("sys_customer_update", .boolean, defaultValue: "false"),
            FieldDefinition("sys_replace_on_upgrade", .boolean, defaultValue: "false"),
            FieldDefinition("table_reference", .boolean, defaultValue: "false"),
            FieldDefinition("text_index", .boolean, defaultValue: "false"),
            FieldDefinition("unique", .boolean, defaultValue: "false"),
            FieldDefinition("use_dependent_field", .boolean, defaultValue: "false"),
            FieldDefinition("use_dynamic_default", .boolean, defaultValue: "false"),
            FieldDefinition(
                "use_reference_qualifier", .choice,
                choices: [
                    FieldChoice("simple", "Simple"), FieldChoice("dynamic", "Dynamic"),
                    FieldChoice("advanced", "Advanced"),
                ], defaultValue: "simple"),
            FieldDefinition("virtual", .boolean, defaultValue: "false"),
            FieldDefinition("widget"),
            FieldDefinition("write_roles"),
            FieldDefinition("xml_view", .boolean, defaultValue: "false"),
        ] + sysMetadataFields)

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
            FieldDefinition("inactive", .boolean, defaultValue: "false"),
            FieldDefinition("language", defaultValue: "en"),
            // The other fields of a PDI's choices (docs/reference/pdi-fields/sys_choice.json).
            FieldDefinition("dependent_value"),
            FieldDefinition("hint"),
            FieldDefinition("synonyms"),
            FieldDefinition.domain,
            FieldDefinition("sys_domain_path", defaultValue: "/"),
            FieldDefinition("sys_tags"),
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
        name: "sys_tiny_url", label: "Tiny URL", application: "System Definition", displayField: "tiny_url",
        fields: [
            FieldDefinition("tiny_url"),
            FieldDefinition("data", label: "URL"),
        ], rules: TableRules(writeRole: "admin"))
}
