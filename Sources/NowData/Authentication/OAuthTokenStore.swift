import Foundation

/// The OAuth tokens of one service: obtained with the password grant, refreshed with the refresh-token grant
/// shortly before they expire, and shared by concurrent requests (one token request at a time).
actor OAuthTokenStore {
    private struct Token {
        var accessToken: String
        var refreshToken: String?
        var refreshAfter: ContinuousClock.Instant
    }

    private let clientID: String
    private let clientSecret: String
    private let user: String
    private let password: String
    private var token: Token?
    private var pending: Task<Token, any Error>?

    init(clientID: String, clientSecret: String, user: String, password: String) {
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.user = user
        self.password = password
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
        return try await requestToken(
            [
                "grant_type": "password", "client_id": clientID, "client_secret": clientSecret, "username": user,
                "password": password,
            ], via: pipeline)
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
}
