/// The reads of the system records the instance itself acts on, typed: users, API keys, client certificates, OAuth
/// applications and business rules. Each is empty (or nil) when the dictionary has no such table.
extension RecordStore {
    /// The user whose `user_name` is `userName`, if there is one.
    func user(named userName: String, _ db: SQLiteConnection) throws -> UserRecord? {
        guard let users = dictionary.table("sys_user") else { return nil }
        return try select(users, where: "\"user_name\" = ?", [.text(userName)], orderBy: "", limit: 1, offset: 0, db)
            .first.map(UserRecord.init)
    }

    /// The user `sysID`, if there is one (never for an empty sys_id).
    func user(sysID: String, _ db: SQLiteConnection) throws -> UserRecord? {
        guard !sysID.isEmpty, let users = dictionary.table("sys_user") else { return nil }
        return try fetch(users, sysID: sysID, db).map(UserRecord.init)
    }

    /// The active `sys_api_key` records unexpired at `time` (a stored date-time).
    func activeAPIKeys(at time: String, _ db: SQLiteConnection) throws -> [APIKeyRecord] {
        guard let keys = dictionary.table("sys_api_key") else { return [] }
        return try select(
            keys, where: Self.activeUnexpired, [.text(time)], orderBy: "", limit: 10_000, offset: 0, db
        ).map(APIKeyRecord.init)
    }

    /// The active `sys_user_certificate` records unexpired at `time` (a stored date-time).
    func activeCertificates(at time: String, _ db: SQLiteConnection) throws -> [UserCertificateRecord] {
        guard let certificates = dictionary.table("sys_user_certificate") else { return [] }
        return try select(
            certificates, where: Self.activeUnexpired, [.text(time)], orderBy: "", limit: 10_000, offset: 0, db
        ).map(UserCertificateRecord.init)
    }

    /// The active `oauth_entity` records.
    func activeOAuthEntities(_ db: SQLiteConnection) throws -> [OAuthEntityRecord] {
        guard let entities = dictionary.table("oauth_entity") else { return [] }
        return try select(entities, where: "\"active\" = 1", [], orderBy: "", limit: 10_000, offset: 0, db)
            .map(OAuthEntityRecord.init)
    }

    /// The active `before` business rules with `abort_action` on any of `tables` that run on an insert (or an
    /// update), in their `order`.
    func abortRules(on tables: [String], insert: Bool, _ db: SQLiteConnection) throws -> [BusinessRuleRecord] {
        guard let scripts = dictionary.table("sys_script") else { return [] }
        let action = insert ? "action_insert" : "action_update"
        return try select(
            scripts,
            where: "\"active\" = 1 AND \"abort_action\" = 1 AND \"when\" = 'before' AND \"\(action)\" = 1 AND "
                + "\"collection\" IN (" + tables.map { _ in "?" }.joined(separator: ", ") + ")",
            tables.map { .text($0) }, orderBy: "\"order\"", limit: 100, offset: 0, db
        ).map(BusinessRuleRecord.init)
    }

    /// The condition of a record that is active and has not expired at the one parameter's time.
    private static let activeUnexpired = "\"active\" = 1 AND (\"expires\" IS NULL OR \"expires\" > ?)"
}
