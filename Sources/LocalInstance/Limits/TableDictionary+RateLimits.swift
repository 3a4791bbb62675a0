extension TableDictionary {
    /// `sys_rate_limit_rules`: the rate-limit rules enforced when ``PlatformLimits/rateRules`` is on. A rule counts
    /// the requests of each user it applies to (`type`: one `user`, the users with `role`, or all users) to one
    /// REST API (`rest_api`, empty for any; `table_name` narrows a Table or Import Set API rule to one table,
    /// `http_method` to one method), at most `rate_limit` per window. Only `admin` reads or writes them.
    static let sysRateLimitRules = TableDefinition(
        name: "sys_rate_limit_rules", label: "Rate Limit Rule", application: "System Web Services",
        displayField: "name",
        fields: [
            FieldDefinition("name"),
            FieldDefinition("active", .boolean, defaultValue: "true"),
            FieldDefinition("rate_limit", .integer, label: "Request limit per hour"),
            FieldDefinition(
                "type", label: "Apply to",
                choices: [
                    FieldChoice("single_user", "Single user"), FieldChoice("role", "Users with role"),
                    FieldChoice("all_users", "All users"),
                ], defaultValue: "all_users"),
            FieldDefinition("user", .reference(table: "sys_user")),
            FieldDefinition("role", .reference(table: "sys_user_role")),
            FieldDefinition(
                "rest_api", label: "REST API",
                choices: PlatformAPI.allCases.filter { $0 != .other }.map { FieldChoice($0.rawValue, $0.name) }),
            FieldDefinition("table_name", label: "Table"),
            FieldDefinition("http_method", label: "HTTP method"),
        ], rules: TableRules(readRole: "admin", writeRole: "admin"))
}
