import Foundation
import NowData

extension LocalInstance {
    /// `POST /oauth_token.do`: the `password`, `refresh_token`, `client_credentials`, `authorization_code`
    /// (``authorizationCodeGrant(form:clientID:client:lifetime:now:)``) and JWT bearer
    /// (``jwtBearerGrant(form:request:clientID:client:lifetime:now:)``) grants, form-urlencoded.
    /// Once an OAuth application is registered (`oauth_entity`), only a registered `client_id` with its
    /// `client_secret` gets a token; until then any client may use the user grants. `client_credentials` needs a
    /// registered application and acts as its `user`; it gives no refresh token.
    ///
    /// A refused request gets the platform's answer,
    /// 401 `{"error_description":"access_denied","error":"server_error"}`.
    func oauthToken(_ request: NowHTTPRequest) -> NowHTTPResponse {
        guard request.method.uppercased() == "POST" else {
            return TableAPIError.methodNotSupported(request.method.uppercased()).response
        }
        let contentType = request.headers.value(named: "Content-Type")?.lowercased() ?? ""
        guard contentType.hasPrefix("application/x-www-form-urlencoded"), let body = request.body else {
            return Self.accessDenied
        }
        let form = Self.formFields(String(decoding: body, as: UTF8.self))
        let (clientID, clientSecret) = Self.clientCredentials(form: form, request: request)
        let client: OAuthClientCheck
        do {
            client = try checkClient(clientID, secret: clientSecret)
        } catch {
            log("local instance: cannot read the OAuth applications: \(error)")
            return TableAPIError.internalFailure.response
        }
        if case .refused = client { return Self.accessDenied }
        let time = now()
        let lifetime =
            Double(options.tokenLifetime.components.seconds)
            + Double(options.tokenLifetime.components.attoseconds) / 1e18
        switch form["grant_type"] {
        case "password":
            guard let user = form["username"], let password = form["password"],
                case let (access, refresh)? = grantTokens(
                    to: user, clientID: clientID, refreshable: true, lifetime: lifetime, now: time,
                    login: { try logIn(user: user, password: password, via: "OAuth password grant") })
            else { return Self.accessDenied }
            return Self.tokenResponse(access: access, refresh: refresh, lifetime: lifetime)
        case "refresh_token":
            guard loginAllowed(nil) else { return Self.accessDenied }
            let token = form["refresh_token"] ?? ""
            let access: String? = tokens.withLock { store in
                guard let grant = store.grant(forRefreshToken: token, now: time),
                    options.oauthClients.isEmpty || grant.clientID == clientID
                else { return nil }
                return store.issueAccessToken(
                    userName: grant.userName, clientID: clientID, passwordHash: grant.passwordHash,
                    lifetime: lifetime, now: time)
            }
            guard let access else {
                noteLogin(nil, succeeded: false, via: "OAuth refresh grant")
                return Self.accessDenied
            }
            return Self.tokenResponse(access: access, refresh: nil, lifetime: lifetime)
        case "client_credentials":
            guard case .registered(let userSysID) = client, let user = try? userName(sysID: userSysID),
                case let (access, _)? = grantTokens(
                    to: user, clientID: clientID, refreshable: false, lifetime: lifetime, now: time,
                    login: { try loginHash(of: user) })
            else { return Self.accessDenied }
            return Self.tokenResponse(access: access, refresh: nil, lifetime: lifetime)
        case "authorization_code":
            return authorizationCodeGrant(form: form, clientID: clientID, client: client, lifetime: lifetime, now: time)
        case Self.jwtBearerGrantType:
            return jwtBearerGrant(
                form: form, request: request, clientID: clientID, client: client, lifetime: lifetime, now: time)
        default:
            return Self.accessDenied
        }
    }

    /// The client's `client_id` and `client_secret`: from the form, or, when the form names no client, from an
    /// `Authorization: Basic` header (RFC 6749's `client_secret_basic`, which requests-oauthlib, and so pysnow's
    /// OAuthClient, sends); empty when neither gives them.
    static func clientCredentials(form: [String: String], request: NowHTTPRequest) -> (id: String, secret: String) {
        if let id = form["client_id"] { return (id, form["client_secret"] ?? "") }
        guard let authorization = request.headers.value(named: "Authorization"),
            authorization.lowercased().hasPrefix("basic "),
            let data = Data(base64Encoded: authorization.dropFirst(6).trimmingCharacters(in: .whitespaces)),
            let pair = String(data: data, encoding: .utf8), let colon = pair.firstIndex(of: ":")
        else { return ("", form["client_secret"] ?? "") }
        let decode = { (text: Substring) in
            String(text).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(text)
        }
        return (decode(pair[..<colon]), decode(pair[pair.index(after: colon)...]))
    }

    /// The tokens of `user` when `login` (which reads the database) gives their stored password hash; nil when it
    /// refuses. A `sys_user` write that begins a revocation between the read and the issue makes the grant read
    /// the user again, so no token outlives a password change, lock-out or deletion it raced.
    func grantTokens(
        to user: String, clientID: String, refreshable: Bool, lifetime: TimeInterval, now time: Date,
        login: () throws -> String?
    ) -> (access: String, refresh: String?)? {
        for _ in 0..<Self.grantAttempts {
            let generation = tokens.withLock { $0.generation }
            guard let hash = try? login() else { return nil }
            let issued = tokens.withLock { store in
                store.issue(
                    userName: user, clientID: clientID, passwordHash: hash, refreshable: refreshable,
                    lifetime: lifetime, now: time, checkedIn: generation)
            }
            if let issued { return issued }
        }
        return nil
    }

    /// How many times a grant reads the user again when `sys_user` writes keep coming between its read and issue.
    private static let grantAttempts = 10

    /// What `/oauth_token.do` makes of a request's client.
    enum OAuthClientCheck {
        /// An active `oauth_entity` with this `client_id` and `client_secret`, acting as the user `userSysID`
        /// (empty when it names none) for `client_credentials`.
        case registered(userSysID: String)
        /// No OAuth application is registered: any client is accepted for the user grants.
        case unregistered
        /// Applications are registered, and none has this `client_id` and `client_secret`.
        case refused
    }

    /// Checks `clientID` and `secret` against the active `oauth_entity` records. A wrong secret or unknown client
    /// counts as a failed login of the client id (``LoginThrottle``), and a locked one is refused.
    ///
    /// - Throws: when the database cannot be read or written.
    func checkClient(_ clientID: String, secret: String) throws -> OAuthClientCheck {
        guard let entities = dictionary.table("oauth_entity") else { return .unregistered }
        let active = try database.read { [store] db in try store.activeOAuthEntities(db) }
        if active.isEmpty { return .unregistered }
        let account = "OAuth client '\(clientID)'"
        guard loginAllowed(account) else { return .refused }
        guard let entity = active.first(where: { $0.clientID == clientID }),
            PasswordHash.verify(secret, against: entity.secretHash)
        else {
            noteLogin(account, succeeded: false, via: "OAuth client secret")
            return .refused
        }
        noteLogin(account, succeeded: true, via: "OAuth client secret")
        _ = try upgraded(
            entity.secretHash, of: secret, in: dictionary.table(entity.className) ?? entities, field: "client_secret",
            where: "sys_id", is: entity.sysID)
        return .registered(userSysID: entity.userSysID)
    }

    /// The `user_name` of the user `sysID`, if it exists.
    private func userName(sysID: String) throws -> String? {
        try database.read { [store] db in try store.user(sysID: sysID, db)?.userName }
    }

    /// Registers `Options.oauthClients` (`nowflow serve --oauth-client ID:SECRET`) as active `oauth_entity`
    /// records acting as `userSysID`, replacing the secret of one already registered, in the caller's transaction.
    static func registerOAuthClients(
        _ clients: [String: String], userSysID: String, timestamp: String, passwordIterations: Int,
        store: RecordStore, dictionary: TableDictionary, _ db: SQLiteConnection
    ) throws {
        guard let entities = dictionary.table("oauth_entity") else { return }
        for (clientID, secret) in clients.sorted(by: { $0.key < $1.key }) {
            let values: StoredRecord = [
                "client_secret": PasswordHash.make(secret, iterations: passwordIterations), "active": "true",
                "user": userSysID,
            ]
            if let existing = try store.select(
                entities, where: "\"client_id\" = ?", [.text(clientID)], orderBy: "", limit: 1, offset: 0, db
            ).first, let sysID = existing["sys_id"] {
                _ = try store.update(entities, sysID: sysID, values, db)
                continue
            }
            var record = values
            record["sys_id"] = String(SHA256.hex("nowflow-oauth:" + clientID).prefix(32))
            record["name"] = clientID
            record["client_id"] = clientID
            try store.insert(entities, .system(record, of: entities, at: timestamp), db)
        }
    }

    private static var accessDenied: NowHTTPResponse {
        NowHTTPResponse(
            statusCode: 401, headers: ["Content-Type": "application/json;charset=UTF-8"],
            body: JSONValue.object(["error_description": "access_denied", "error": "server_error"]).jsonData())
    }

    /// The platform's token answer: the access token, the refresh token when the grant gives one, the scope, the
    /// type and the lifetime in seconds.
    static func tokenResponse(access: String, refresh: String?, lifetime: TimeInterval) -> NowHTTPResponse {
        var members: [(String, JSONValue)] = [("access_token", .string(access))]
        if let refresh { members.append(("refresh_token", .string(refresh))) }
        members += [
            ("scope", .string("useraccount")), ("token_type", .string("Bearer")),
            ("expires_in", .number(JSONNumber(Int(lifetime)))),
        ]
        return NowHTTPResponse(
            statusCode: 200, headers: ["Content-Type": "application/json;charset=UTF-8"],
            body: JSONValue.object(JSONObject(members)).jsonData())
    }

    /// The fields of a form-urlencoded body (`+` is a space).
    static func formFields(_ body: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in body.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ text: Substring) -> String {
                let spaced = text.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            guard let name = parts.first else { continue }
            fields[decode(name)] = parts.count > 1 ? decode(parts[1]) : ""
        }
        return fields
    }
}
