import Foundation

/// The OAuth tokens the instance issued: access tokens that expire, and refresh tokens.
struct TokenStore: Sendable {
    struct Grant: Sendable {
        var userName: String
        var clientID: String
        var expires: Date
    }

    private var accessTokens: [String: Grant] = [:]
    private var refreshTokens: [String: Grant] = [:]

    /// How long a refresh token lives (the platform's default is 100 days).
    static let refreshLifetime: TimeInterval = 100 * 24 * 3600

    /// Issues an access token for a user.
    mutating func issueAccessToken(userName: String, clientID: String, lifetime: TimeInterval, now: Date) -> String {
        removeExpired(now: now)
        let token = Self.randomToken()
        accessTokens[token] = Grant(userName: userName, clientID: clientID, expires: now.addingTimeInterval(lifetime))
        return token
    }

    /// Issues a refresh token for a user.
    mutating func issueRefreshToken(userName: String, clientID: String, now: Date) -> String {
        let token = Self.randomToken()
        refreshTokens[token] = Grant(
            userName: userName, clientID: clientID, expires: now.addingTimeInterval(Self.refreshLifetime))
        return token
    }

    /// The user of a valid access token.
    func user(forAccessToken token: String, now: Date) -> String? {
        guard let grant = accessTokens[token], grant.expires > now else { return nil }
        return grant.userName
    }

    /// The grant of a valid refresh token.
    func grant(forRefreshToken token: String, now: Date) -> Grant? {
        guard let grant = refreshTokens[token], grant.expires > now else { return nil }
        return grant
    }

    private mutating func removeExpired(now: Date) {
        accessTokens = accessTokens.filter { $0.value.expires > now }
    }

    private static func randomToken() -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        var generator = SystemRandomNumberGenerator()
        return String((0..<86).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
    }
}
