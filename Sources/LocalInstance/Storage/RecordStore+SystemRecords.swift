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

    /// The active `oauth_jwt` application whose `client_id` is `clientID`, if there is one.
    func activeOAuthJWT(clientID: String, _ db: SQLiteConnection) throws -> OAuthJWTRecord? {
        guard !clientID.isEmpty, let applications = dictionary.table("oauth_jwt") else { return nil }
        return try select(
            applications, where: "\"active\" = 1 AND \"client_id\" = ?", [.text(clientID)], orderBy: "", limit: 1,
            offset: 0, db
        ).first.map(OAuthJWTRecord.init)
    }

    /// The `jwt_verifier_map` records of the `oauth_jwt` application `sysID`, each with its certificate.
    func verifiers(ofOAuthJWT sysID: String, _ db: SQLiteConnection) throws -> [JWTVerifierRecord] {
        guard let maps = dictionary.table("jwt_verifier_map"), let certificates = dictionary.table("sys_certificate")
        else { return [] }
        return try select(maps, where: "\"oauth_jwt\" = ?", [.text(sysID)], orderBy: "", limit: 1_000, offset: 0, db)
            .map { map in
                let certificate = try (map["sys_certificate"]).flatMap { $0.isEmpty ? nil : $0 }.flatMap {
                    try fetch(certificates, sysID: $0, db)
                }
                return JWTVerifierRecord(map, certificate: certificate)
            }
    }

    /// The users whose `field` is `value` (at most `limit`); none when `sys_user` has no such field or it is a
    /// password field, which nothing is matched against.
    func users(where field: String, is value: String, limit: Int, _ db: SQLiteConnection) throws -> [UserRecord] {
        guard let users = dictionary.table("sys_user"), let definition = users.field(field), !definition.isPassword
        else { return [] }
        return try select(users, where: "\"\(field)\" = ?", [.text(value)], orderBy: "", limit: limit, offset: 0, db)
            .map(UserRecord.init)
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
