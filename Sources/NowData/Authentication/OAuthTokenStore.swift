import Foundation

/// The OAuth tokens of one service: obtained with the password grant (refreshed with the refresh-token grant
/// shortly before they expire) or the JWT bearer grant (asked again with a new assertion), and shared by concurrent
/// requests (one token request at a time).
actor OAuthTokenStore {
    /// How the store obtains a token.
    enum Grant: Sendable {
        /// The password grant for `user`.
        case password(user: String, password: String)
        /// The JWT bearer grant, with an assertion about `subject` signed by `privateKeyPEM` (see
        /// ``NowAuthentication/jwtBearer(clientID:clientSecret:privateKeyPEM:keyID:subject:)``).
        case jwtBearer(privateKeyPEM: String, keyID: String?, subject: String)
    }

    private struct Token {
        var accessToken: String
        var refreshToken: String?
        var refreshAfter: ContinuousClock.Instant
    }

    private let clientID: String
    private let clientSecret: String
    private let grant: Grant
    private var token: Token?
    private var pending: Task<Token, any Error>?

    init(clientID: String, clientSecret: String, grant: Grant) {
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.grant = grant
    }

    /// A valid access token: the current one, a refreshed one near its expiry, or a new one.
    func accessToken(via pipeline: RequestPipeline) async throws -> String {
        if let token, ContinuousClock.now < token.refreshAfter { return token.accessToken }
        if let pending { return try await pending.value.accessToken }
        let previous = token
        let task = Task { try await self.obtainToken(replacing: previous, via: pipeline) }
        pending = task
        defer { pending = nil }
        let new = try await task.value
        token = new
        return new.accessToken
    }

    /// Forgets `accessToken` after the instance refused it, so the next request obtains another one.
    func invalidate(_ accessToken: String) {
        if let current = token, current.accessToken == accessToken {
            token = Token(accessToken: "", refreshToken: current.refreshToken, refreshAfter: .now)
        }
    }

    private func obtainToken(replacing previous: Token?, via pipeline: RequestPipeline) async throws -> Token {
        if let refreshToken = previous?.refreshToken {
            let refreshed = try? await requestToken(
                [
                    "grant_type": "refresh_token", "client_id": clientID, "client_secret": clientSecret,
                    "refresh_token": refreshToken,
                ], via: pipeline)
            if var refreshed {
                if refreshed.refreshToken == nil { refreshed.refreshToken = refreshToken }
                return refreshed
            }
        }
        switch grant {
        case .password(let user, let password):
            return try await requestToken(
                [
                    "grant_type": "password", "client_id": clientID, "client_secret": clientSecret, "username": user,
                    "password": password,
                ], via: pipeline)
        case .jwtBearer(let privateKeyPEM, let keyID, let subject):
            return try await requestToken(
                [
                    "grant_type": "urn:ietf:params:oauth:grant-type:jwt-bearer", "client_id": clientID,
                    "client_secret": clientSecret,
                    "assertion": try Self.assertion(
                        clientID: clientID, subject: subject, keyID: keyID, privateKeyPEM: privateKeyPEM, now: Date()),
                ], via: pipeline)
        }
    }

    /// A new compact JWT for the JWT bearer grant: RS256, issued by and for `clientID` about `subject` at `now`,
    /// valid five minutes, with a new `jti`.
    ///
    /// - Throws: ``NowDataError/accessToken(_:)`` when `privateKeyPEM` holds no unencrypted RSA private key.
    static func assertion(clientID: String, subject: String, keyID: String?, privateKeyPEM: String, now: Date) throws
        -> String
    {
        var header: [(String, JSONValue)] = [("alg", "RS256"), ("typ", "JWT")]
        if let keyID { header.append(("kid", .string(keyID))) }
        let issued = Int(now.timeIntervalSince1970)
        let claims: [(String, JSONValue)] = [
            ("iss", .string(clientID)), ("aud", .string(clientID)), ("sub", .string(subject)),
            ("iat", .number(JSONNumber(issued))), ("exp", .number(JSONNumber(issued + 300))),
            ("jti", .string(UUID().uuidString.lowercased())),
        ]
        let input =
            base64URL(JSONValue.object(JSONObject(header)).jsonData()) + "."
            + base64URL(JSONValue.object(JSONObject(claims)).jsonData())
        guard let signature = RS256Signature.sign(Array(input.utf8), privateKeyPEM: privateKeyPEM) else {
            throw NowDataError.accessToken(
                .userSessionError(
                    JWTAssertionError(
                        "the JWT bearer grant's private key is not an unencrypted RSA private key in PEM")))
        }
        return input + "." + base64URL(Data(signature))
    }

    /// Unpadded base64url (RFC 7515 §2).
    private static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    private func requestToken(_ parameters: [String: String], via pipeline: RequestPipeline) async throws -> Token {
        let body = parameters.sorted { $0.key < $1.key }
            .map { "\(Self.formEncode($0.key))=\(Self.formEncode($0.value))" }
            .joined(separator: "&")
        let request = NowHTTPRequest(
            method: "POST", path: "/oauth_token.do",
            headers: ["Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"],
            body: Data(body.utf8))
        let response: NowHTTPResponse
        do {
            response = try await pipeline.send(request, mode: .idempotent, authenticated: false)
        } catch NowDataError.badResponse(let status) where [400, 401, 403].contains(status.code) {
            throw NowDataError.accessToken(.userSessionError(NowDataError.badResponse(statusCode: status)))
        }
        guard let body = try? JSONValue(json: response.body), let accessToken = body["access_token"]?.string,
            !accessToken.isEmpty
        else { throw NowDataError.accessToken(.accessTokenRetrievalFailed) }
        let expiresIn = body["expires_in"]
        let lifetime = expiresIn?.number?.int ?? expiresIn?.string.flatMap { Int($0) } ?? 1800
        let seconds = Double(max(lifetime, 0))
        let margin = min(60, seconds / 10)
        return Token(
            accessToken: accessToken, refreshToken: body["refresh_token"]?.string,
            refreshAfter: .now + .seconds(seconds - margin))
    }

    private static let formAllowed = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    private static func formEncode(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: formAllowed) ?? ""
    }
}

extension OAuthTokenStore: CustomReflectable {
    /// The client and the user, without the secret, the password or the tokens, for `dump`.
    nonisolated var customMirror: Mirror {
        Mirror(
            self, children: ["clientID": clientID, "user": user, "secrets": "<redacted>"], displayStyle: .class)
    }

    /// The user the tokens act as: the password grant's user, or the JWT bearer grant's subject.
    private nonisolated var user: String {
        switch grant {
        case .password(let user, _): user
        case .jwtBearer(_, _, let subject): subject
        }
    }
}
