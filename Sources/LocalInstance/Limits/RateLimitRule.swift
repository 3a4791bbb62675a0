/// A `sys_rate_limit_rules` record as the instance reads it to count a request.
struct RateLimitRule: Sendable, Equatable {
    var sysID: String
    var name: String
    /// `rate_limit`: the requests allowed per window.
    var limit: Int
    /// `type`: `single_user`, `role` or `all_users`.
    var type: String
    /// `user`: the sys_id of the user of a `single_user` rule.
    var userSysID: String
    /// The name of the role (`role`) of a `role` rule, read from `sys_user_role`.
    var roleName: String
    /// `rest_api`: a ``PlatformAPI`` raw value, or empty for any.
    var restAPI: String
    /// `table_name`: the one table the rule counts, or empty for any.
    var tableName: String
    /// `http_method`: the one method the rule counts, or empty for any.
    var httpMethod: String

    /// The rule of a stored `sys_rate_limit_rules` row, the name of its role given.
    init(_ stored: StoredRecord, roleName: String) {
        sysID = stored["sys_id"] ?? ""
        name = stored["name"] ?? ""
        limit = Int(stored["rate_limit"] ?? "") ?? 0
        type = stored["type"] ?? ""
        userSysID = stored["user"] ?? ""
        self.roleName = roleName
        restAPI = stored["rest_api"] ?? ""
        tableName = stored["table_name"] ?? ""
        httpMethod = stored["http_method"] ?? ""
    }

    /// Whether the rule counts requests of `method` to `api` (on `table`).
    func covers(_ api: PlatformAPI, table: String?, method: String) -> Bool {
        (restAPI.isEmpty || restAPI == api.rawValue) && (tableName.isEmpty || tableName == table)
            && (httpMethod.isEmpty || httpMethod.uppercased() == method.uppercased())
    }

    /// The rule that applies to a user among the `rules` covering a request, by the platform's precedence: a rule
    /// for the user alone over rules for a role the user holds (`holds`), over rules for all users; the lowest
    /// limit among several of the same kind.
    static func applying(
        _ rules: [RateLimitRule], toUser userSysID: String, holds: (String) throws -> Bool
    ) rethrows -> RateLimitRule? {
        let lowest = { (rules: [RateLimitRule]) in rules.min { $0.limit < $1.limit } }
        if let rule = lowest(rules.filter { $0.type == "single_user" && $0.userSysID == userSysID }) { return rule }
        var held: [RateLimitRule] = []
        for rule in rules where rule.type == "role" && !rule.roleName.isEmpty {
            if try holds(rule.roleName) { held.append(rule) }
        }
        if let rule = lowest(held) { return rule }
        return lowest(rules.filter { $0.type == "all_users" })
    }
}
