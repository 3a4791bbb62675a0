import Foundation
import NowData

extension LocalInstance {
    /// The `user_name` of the request's valid credentials (a verified client certificate that an active
    /// `sys_user_certificate` record maps to a user, whatever headers come with it; else an `x-sn-apikey` header
    /// against `sys_api_key`, Basic against sys_user or an OAuth bearer token); nil for missing or wrong credentials.
    ///
    /// The certificate wins over headers as on the platform, where servicenow.itsm logs in by certificate while
    /// still sending `Authorization: Basic` for the user `None` (its client has no username then).
    ///
    /// - Throws: when the database cannot be read.
    func authenticate(_ request: NowHTTPRequest) throws -> String? {
        if let fingerprint = request.headers.value(named: HTTPListener.clientCertificateHeader),
            let user = try certificateUser(fingerprint)
        {
            return user
        }
        if let key = request.headers.value(named: "x-sn-apikey") { return try apiKeyUser(key) }
        guard let authorization = request.headers.value(named: "Authorization") else { return nil }
        let parts = authorization.split(separator: " ", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { return nil }
        switch parts[0].lowercased() {
        case "basic":
            guard let data = Data(base64Encoded: parts[1].trimmingCharacters(in: .whitespaces)),
                let pair = String(data: data, encoding: .utf8), let colon = pair.firstIndex(of: ":")
            else {
                noteLogin(nil, succeeded: false, via: "Basic")
                return nil
            }
            let user = String(pair[..<colon])
            let account = Self.account(user: user)
            guard loginAllowed(account) else { return nil }
            let (cached, generation) = verifiedCredentials.withLock { ($0.user(for: authorization), $0.generation) }
            if let cached {
                noteLogin(account, succeeded: true, via: "Basic")
                return cached
            }
            guard try logIn(user: user, password: String(pair[pair.index(after: colon)...]), via: "Basic") != nil
            else { return nil }
            verifiedCredentials.withLock { $0.remember(authorization, user: user, verifiedIn: generation) }
            return user
        case "bearer":
            let token = parts[1].trimmingCharacters(in: .whitespaces)
            let time = now()
            return tokens.withLock { $0.user(forAccessToken: token, now: time) }
        default:
            return nil
        }
    }

    /// The stored password hash of an active user who is not locked out (`locked_out`, or by failed logins: see
    /// ``LoginThrottle``) when `password` is theirs and the client is not locked either; nil otherwise. Counts and
    /// logs a failure (`via` says how the login came: `Basic`, `login form`); after a success, stores a hash weaker
    /// than the instance's work factor anew and returns that one.
    ///
    /// - Throws: when the database cannot be read or written.
    func logIn(user: String, password: String, via way: String) throws -> String? {
        let account = Self.account(user: user)
        guard loginAllowed(account) else { return nil }
        guard let hash = try loginHash(of: user), PasswordHash.verify(password, against: hash) else {
            noteLogin(account, succeeded: false, via: way)
            return nil
        }
        noteLogin(account, succeeded: true, via: way)
        guard let users = dictionary.table("sys_user") else { return hash }
        return try upgraded(hash, of: password, in: users, field: "user_password", where: "user_name", is: user)
    }

    /// The ``LoginThrottle`` account of a user.
    static func account(user: String) -> String { "user '\(user)'" }

    /// Whether the request's client and `account` (nil: the client alone) may try a login now.
    func loginAllowed(_ account: String?) -> Bool {
        let time = now()
        let client = ClientAddress.current
        return loginThrottle.withLock { !$0.isLocked(account: account, client: client, now: time) }
    }

    /// Notes a login of `account` (nil when the credentials name none, as an API key) from the request's client:
    /// a success starts the account's count again; a failure is counted and logged, with any lock it begins
    /// (never the secret).
    func noteLogin(_ account: String?, succeeded: Bool, via way: String) {
        if succeeded {
            if let account { loginThrottle.withLock { $0.recordSuccess(account: account) } }
            return
        }
        let time = now()
        let client = ClientAddress.current
        let locks = loginThrottle.withLock { $0.recordFailure(account: account, client: client, now: time) }
        log("local instance: failed login\(account.map { " of " + $0 } ?? "") (\(way)) from \(client ?? "in process")")
        for lock in locks { log("local instance: \(lock)") }
    }

    /// `stored` when it is as strong as a new hash; otherwise a new hash of `secret`, written in place of `stored`
    /// in `field` of the `table` record whose `keyField` is `key` (unless a write changed it meanwhile).
    ///
    /// - Throws: when the database cannot be written.
    func upgraded(
        _ stored: String, of secret: String, in table: TableDefinition, field: String, where keyField: String,
        is key: String
    ) throws -> String {
        guard PasswordHash.needsUpgrade(stored, iterations: options.passwordIterations) else { return stored }
        let hash = PasswordHash.make(secret, iterations: options.passwordIterations)
        return try database.write { [store] db in
            guard
                let record = try store.select(
                    table, where: "\"\(keyField)\" = ? AND \"\(field)\" = ?", [.text(key), .text(stored)], orderBy: "",
                    limit: 1, offset: 0, db
                ).first, let sysID = record["sys_id"]
            else { return stored }
            _ = try store.update(table, sysID: sysID, [field: hash], db)
            return hash
        }
    }

    /// The stored password hash of a user who may log in (active, not locked out; empty when they have no
    /// password, which no password matches); nil for anyone else.
    ///
    /// - Throws: when the database cannot be read.
    func loginHash(of user: String) throws -> String? {
        let record = try database.read { [store] db in try store.user(named: user, db) }
        guard let record, record.mayLogIn else { return nil }
        return record.passwordHash
    }

    /// The `user_name` of the user an active, unexpired `sys_api_key` record with this token acts as, when that
    /// user may log in; nil otherwise. A wrong token counts as a failed login of the client.
    ///
    /// - Throws: when the database cannot be read or written.
    func apiKeyUser(_ token: String) throws -> String? {
        guard !token.isEmpty, let keys = dictionary.table("sys_api_key"), loginAllowed(nil) else { return nil }
        let time = Timestamp.string(now())
        let candidates = try database.read { [store] db in try store.activeAPIKeys(at: time, db) }
        // A token already verified is found without a derivation per key.
        guard
            let key = candidates.first(where: { PasswordHash.isKnownMatch(token, $0.tokenHash) })
                ?? candidates.first(where: { PasswordHash.verify(token, against: $0.tokenHash) })
        else {
            noteLogin(nil, succeeded: false, via: "API key")
            return nil
        }
        _ = try upgraded(key.tokenHash, of: token, in: keys, field: "token", where: "sys_id", is: key.sysID)
        guard let user = try database.read({ [store] db in try store.user(sysID: key.userSysID, db) }), user.mayLogIn
        else { return nil }
        return user.userName
    }

    /// Registers `Options.adminAPIKey` as the active, unexpiring `sys_api_key` record `nowflow serve` acting as
    /// `userSysID` (at a fixed sys_id, so that every start replaces its token), in the caller's transaction.
    static func registerAPIKey(
        _ token: String, userSysID: String, timestamp: String, passwordIterations: Int,
        store: RecordStore, dictionary: TableDictionary, _ db: SQLiteConnection
    ) throws {
        guard let keys = dictionary.table("sys_api_key") else { return }
        let sysID = String(SHA256.hex("nowflow-api-key:serve").prefix(32))
        let values: StoredRecord = [
            "token": PasswordHash.make(token, iterations: passwordIterations), "active": "true", "user": userSysID,
            "sys_updated_on": timestamp, "sys_updated_by": "system",
        ]
        if try store.fetch(keys, sysID: sysID, db) != nil {
            _ = try store.update(keys, sysID: sysID, values, db)
            return
        }
        var record = values
        record["sys_id"] = sysID
        record["name"] = "nowflow serve"
        try store.insert(keys, .system(record, of: keys, at: timestamp), db)
    }

    /// The `user_name` of the user an active, unexpired `sys_user_certificate` record with this SHA-256
    /// fingerprint (lowercase hex) maps to, when that user may log in; nil otherwise.
    ///
    /// - Throws: when the database cannot be read.
    func certificateUser(_ fingerprint: String) throws -> String? {
        let time = Timestamp.string(now())
        let user = try database.read { [store] db -> UserRecord? in
            let mapping = try store.activeCertificates(at: time, db).first { $0.fingerprint == fingerprint }
            return try mapping.flatMap { try store.user(sysID: $0.userSysID, db) }
        }
        guard let user, user.mayLogIn else { return nil }
        return user.userName
    }

    /// After a write to `sys_user`: forgets the verified Basic credentials and ends the tokens of every user who
    /// can no longer log in with them (locked out, deactivated, given a new password, renamed or deleted).
    ///
    /// - Throws: when the database cannot be read.
    func revokeStaleCredentials() throws {
        verifiedCredentials.withLock { $0.forgetAll() }
        tokens.withLock { $0.beginRevocation() }
        for user in tokens.withLock({ $0.userNames }) {
            let hash = try loginHash(of: user)
            tokens.withLock { $0.revoke(userName: user, keeping: hash) }
        }
    }
}
