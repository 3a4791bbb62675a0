extension TableDictionary {
    /// `sys_user_role`: the roles (`admin`, `itil`, ...).
    static let sysUserRole = TableDefinition(
        name: "sys_user_role", label: "Role", displayField: "name",
        fields: [
            FieldDefinition("name"),
            FieldDefinition("description"),
            FieldDefinition("suffix"),
            FieldDefinition("elevated_privilege", .boolean, defaultValue: "false"),
            FieldDefinition("grantable", .boolean, defaultValue: "true"),
            FieldDefinition("can_delegate", .boolean, defaultValue: "true"),
        ])

    /// `sys_user_has_role`: a role a user holds, granted directly or through a group (`granted_by`, `inherited`).
    static let sysUserHasRole = TableDefinition(
        name: "sys_user_has_role", label: "User Role", displayField: "role",
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
        ])

    /// `sys_group_has_role`: a role a group gives its members.
    static let sysGroupHasRole = TableDefinition(
        name: "sys_group_has_role", label: "Group Role", displayField: "role",
        fields: [
            FieldDefinition("group", .reference(table: "sys_user_group")),
            FieldDefinition("role", .reference(table: "sys_user_role")),
            FieldDefinition("inherits", .boolean, defaultValue: "true"),
        ])

    /// `sys_script`: business rules. The local instance runs the declarative part of an active `before` rule
    /// with `abort_action`: a write its `filter_condition` matches is refused (see ``BusinessRules``); scripts are
    /// stored, never run.
    static let sysScript = TableDefinition(
        name: "sys_script", label: "Business Rule", displayField: "name",
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
        ])
}

extension TableDictionary {
    /// The role a user needs, besides `admin`, to write (insert, update, delete) a table's records; a table extends
    /// its parent's (`incident` takes `task`'s `itil`). A table not listed here, or under one listed, takes writes
    /// from any authenticated user (custom tables, `alm_asset`, `bsm_chart`). The configured administrator
    /// (`Options.adminUser`) may always write.
    static let writeRoles: [String: String] = [
        "task": "itil", "cmdb_ci": "itil", "cmdb_rel_ci": "itil",
        "sys_user": "user_admin", "sys_user_group": "user_admin", "sys_user_grmember": "user_admin",
        "cmn_department": "user_admin", "core_company": "user_admin",
        "sys_user_role": "admin", "sys_user_has_role": "admin", "sys_group_has_role": "admin", "sys_script": "admin",
        "sys_choice": "admin", "oauth_entity": "admin", "sys_api_key": "admin", "sys_tiny_url": "admin",
        "cmdb_rel_type": "admin", "chg_model": "admin", "std_change_producer_version": "admin", "syslog": "admin",
    ]

    /// The role that writes to `table` need (see ``writeRoles``), nil when any user may write.
    func writeRole(of table: String) -> String? {
        var current: String? = table
        while let name = current {
            if let role = Self.writeRoles[name] { return role }
            current = self.table(name)?.parent
        }
        return nil
    }
}
