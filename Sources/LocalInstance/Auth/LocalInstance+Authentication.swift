import Foundation
import NowData

extension LocalInstance {
    /// The `user_name` of the request's valid credentials (an `x-sn-apikey` header against `sys_api_key`, Basic
    /// against sys_user, an OAuth bearer token, or else a verified client certificate against
    /// `sys_user_certificate`); nil for missing or wrong credentials.
    ///
    /// - Throws: when the database cannot be read.
    func authenticate(_ request: NowHTTPRequest) throws -> String? {
        if let key = request.headers.value(named: "x-sn-apikey") { return try apiKeyUser(key) }
        guard let authorization = request.headers.value(named: "Authorization") else {
            return try request.headers.value(named: HTTPListener.clientCertificateHeader).flatMap(certificateUser)
        }
        let (cached, generation) = verifiedCredentials.withLock { ($0.user(for: authorization), $0.generation) }
        if let cached { return cached }
        let parts = authorization.split(separator: " ", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { return nil }
        switch parts[0].lowercased() {
        case "basic":
            guard let data = Data(base64Encoded: parts[1].trimmingCharacters(in: .whitespaces)),
                let pair = String(data: data, encoding: .utf8), let colon = pair.firstIndex(of: ":")
            else { return nil }
            let user = String(pair[..<colon])
            guard try verify(user: user, password: String(pair[pair.index(after: colon)...])) else { return nil }
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

    /// Whether an active, unlocked user has this password.
    ///
    /// - Throws: when the database cannot be read.
    func verify(user: String, password: String) throws -> Bool {
        try verifiedHash(user: user, password: password) != nil
    }

    /// The stored password hash of an active, unlocked user when `password` is theirs; nil otherwise.
    ///
    /// - Throws: when the database cannot be read.
    func verifiedHash(user: String, password: String) throws -> String? {
        guard let hash = try loginHash(of: user), PasswordHash.verify(password, against: hash) else { return nil }
        return hash
    }

    /// The stored password hash of a user who may log in (active, not locked out; empty when they have no
    /// password, which no password matches); nil for anyone else.
    ///
    /// - Throws: when the database cannot be read.
    func loginHash(of user: String) throws -> String? {
        guard let users = dictionary.table("sys_user") else { return nil }
        let record = try database.read { [store] db in
            try store.select(users, where: "\"user_name\" = ?", [.text(user)], orderBy: "", limit: 1, offset: 0, db)
                .first
        }
        guard let record, record["active"] == "true", record["locked_out"] != "true" else { return nil }
        return record["user_password"] ?? ""
    }

    /// The `user_name` of the user an active, unexpired `sys_api_key` record with this token acts as, when that
    /// user may log in; nil otherwise.
    ///
    /// - Throws: when the database cannot be read.
    func apiKeyUser(_ token: String) throws -> String? {
        guard !token.isEmpty, let keys = dictionary.table("sys_api_key"), let users = dictionary.table("sys_user")
        else { return nil }
        let time = Timestamp.string(now())
        let user: StoredRecord? = try database.read { [store] db in
            let candidates = try store.select(
                keys, where: "\"active\" = 1 AND (\"expires\" IS NULL OR \"expires\" > ?)", [.text(time)],
                orderBy: "", limit: 10_000, offset: 0, db)
            guard let key = candidates.first(where: { PasswordHash.verify(token, against: $0["token"] ?? "") }),
                let sysID = key["user"], !sysID.isEmpty
            else { return nil }
            return try store.fetch(users, sysID: sysID, db)
        }
        guard let user, user["active"] == "true", user["locked_out"] != "true" else { return nil }
        return user["user_name"]
    }

    /// The `user_name` of the user an active, unexpired `sys_user_certificate` record with this SHA-256
    /// fingerprint (lowercase hex) maps to, when that user may log in; nil otherwise.
    ///
    /// - Throws: when the database cannot be read.
    func certificateUser(_ fingerprint: String) throws -> String? {
        guard let certificates = dictionary.table("sys_user_certificate"), let users = dictionary.table("sys_user")
        else { return nil }
        let time = Timestamp.string(now())
        let user: StoredRecord? = try database.read { [store] db in
            let candidates = try store.select(
                certificates, where: "\"active\" = 1 AND (\"expires\" IS NULL OR \"expires\" > ?)", [.text(time)],
                orderBy: "", limit: 10_000, offset: 0, db)
            let normalized = { (text: String) in text.lowercased().filter { $0 != ":" && $0 != " " } }
            guard let mapping = candidates.first(where: { normalized($0["fingerprint"] ?? "") == fingerprint }),
                let sysID = mapping["user"], !sysID.isEmpty
            else { return nil }
            return try store.fetch(users, sysID: sysID, db)
        }
        guard let user, user["active"] == "true", user["locked_out"] != "true" else { return nil }
        return user["user_name"]
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
