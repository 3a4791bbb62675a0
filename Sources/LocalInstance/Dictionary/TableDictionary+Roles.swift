extension TableDictionary {
    /// `sys_user_role`: the roles (`admin`, `itil`, ...).
    static let sysUserRole = TableDefinition(
        name: "sys_user_role", label: "Role", application: "User Administration", displayField: "name",
        fields: [
            FieldDefinition("name"),
            FieldDefinition("description"),
            FieldDefinition("suffix"),
            FieldDefinition("elevated_privilege", .boolean, defaultValue: "false"),
            FieldDefinition("grantable", .boolean, defaultValue: "true"),
            FieldDefinition("can_delegate", .boolean, defaultValue: "true"),
            // The other fields of a PDI's roles (docs/reference/pdi-fields/sys_user_role.json), the sys_metadata
            // ones included.
            FieldDefinition("assignable_by", .reference(table: "sys_user_role")),
            FieldDefinition("includes_roles"),
            FieldDefinition("requires_subscription"),
            FieldDefinition("scoped_admin", .boolean, defaultValue: "false"),
        ] + sysMetadataFields, rules: TableRules(writeRole: "admin"))

    /// `sys_user_has_role`: a role a user holds, granted directly or through a group (`granted_by`, `inherited`).
    static let sysUserHasRole = TableDefinition(
        name: "sys_user_has_role", label: "User Role", application: "User Administration", displayField: "role",
        fields: [
            FieldDefinition("user", .reference(table: "sys_user")),
            FieldDefinition("role", .reference(table: "sys_user_role")),
            FieldDefinition("granted_by", .reference(table: "sys_user_group")),
            FieldDefinition("inherited", .boolean, defaultValue: "false"),
            FieldDefinition(
                "state", .choice,
                choices: [
                    FieldChoice("active", "Active"), FieldChoice("pending_approval", "Pending approval"),
                    FieldChoice("inactive", "Inactive"),
                ], defaultValue: "active"),
            // The other fields of a PDI's user roles (docs/reference/pdi-fields/sys_user_has_role.json).
            FieldDefinition("included_in_role", .reference(table: "sys_user_has_role")),
            FieldDefinition("included_in_role_instance", .reference(table: "sys_user_role_contains")),
            FieldDefinition("inh_count", .integer, label: "Inheritance Count"),
            FieldDefinition("inh_map", label: "Inheritance Map"),
            FieldDefinition("sys_tags"),
        ], rules: TableRules(writeRole: "admin"))

    /// `sys_group_has_role`: a role a group gives its members.
    static let sysGroupHasRole = TableDefinition(
        name: "sys_group_has_role", label: "Group Role", application: "User Administration", displayField: "role",
        fields: [
            FieldDefinition("group", .reference(table: "sys_user_group")),
            FieldDefinition("role", .reference(table: "sys_user_role")),
            FieldDefinition("inherits", .boolean, defaultValue: "true"),
        ], rules: TableRules(writeRole: "admin"))

    /// `sys_script`: business rules. The local instance runs the declarative part of an active `before` rule
    /// with `abort_action`: a write its `filter_condition` matches is refused (see ``BusinessRules``); scripts are
    /// stored, never run.
    static let sysScript = TableDefinition(
        name: "sys_script", label: "Business Rule", application: "System Definition", displayField: "name",
        fields: [
            FieldDefinition("name"),
            FieldDefinition("collection", label: "Table"),
            FieldDefinition("active", .boolean, defaultValue: "true"),
            FieldDefinition(
                "when", .choice,
                choices: [
                    FieldChoice("before", "before"), FieldChoice("after", "after"), FieldChoice("async", "async"),
                    FieldChoice("display", "display"),
                ], defaultValue: "before"),
            FieldDefinition("order", .integer, defaultValue: "100"),
            FieldDefinition("action_insert", .boolean, label: "Insert", defaultValue: "false"),
            FieldDefinition("action_update", .boolean, label: "Update", defaultValue: "false"),
            FieldDefinition("action_delete", .boolean, label: "Delete", defaultValue: "false"),
            FieldDefinition("action_query", .boolean, label: "Query", defaultValue: "false"),
            FieldDefinition("abort_action", .boolean, defaultValue: "false"),
            FieldDefinition("add_message", .boolean, defaultValue: "false"),
            FieldDefinition("message"),
            FieldDefinition("filter_condition", label: "Filter Conditions"),
            FieldDefinition("condition"),
            FieldDefinition("script"),
            FieldDefinition("description"),
        ], rules: TableRules(writeRole: "admin"))
}
