import Foundation
import NowData

extension LocalInstance {
    /// The `user_name` of the request's valid credentials (Basic against sys_user, or an OAuth bearer token);
    /// nil for missing or wrong credentials.
    ///
    /// - Throws: when the database cannot be read.
    func authenticate(_ request: NowHTTPRequest) throws -> String? {
        guard let authorization = request.headers["Authorization"] else { return nil }
        if let user = verifiedCredentials.withLock({ $0[authorization] }) { return user }
        let parts = authorization.split(separator: " ", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { return nil }
        switch parts[0].lowercased() {
        case "basic":
            guard let data = Data(base64Encoded: parts[1].trimmingCharacters(in: .whitespaces)),
                let pair = String(data: data, encoding: .utf8), let colon = pair.firstIndex(of: ":")
            else { return nil }
            let user = String(pair[..<colon])
            guard try verify(user: user, password: String(pair[pair.index(after: colon)...])) else { return nil }
            verifiedCredentials.withLock { cache in
                if cache.count >= 1024 { cache.removeAll() }
                cache[authorization] = user
            }
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
        guard let users = dictionary.table("sys_user") else { return false }
        let record = try database.read { [store] db in
            try store.select(users, where: "\"user_name\" = ?", [.text(user)], orderBy: "", limit: 1, offset: 0, db)
                .first
        }
        guard let record, record["active"] == "true", record["locked_out"] != "true",
            let hash = record["user_password"]
        else { return false }
        return PasswordHash.verify(password, against: hash)
    }
}
