extension RecordStore {
    /// The active `sys_rate_limit_rules` records with a limit, each with the name of its role; empty when the
    /// dictionary has no such table.
    func rateLimitRules(_ db: SQLiteConnection) throws -> [RateLimitRule] {
        guard let rules = dictionary.table("sys_rate_limit_rules") else { return [] }
        let roles = dictionary.table("sys_user_role")
        return try select(rules, where: "\"active\" = 1", [], orderBy: "", limit: 10_000, offset: 0, db).map {
            stored in
            let roleSysID = stored["role"] ?? ""
            let role = try roles.flatMap { roleSysID.isEmpty ? nil : try fetch($0, sysID: roleSysID, db) }
            return RateLimitRule(stored, roleName: role?["name"] ?? "")
        }
    }
}
