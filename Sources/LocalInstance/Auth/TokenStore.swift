import Foundation

/// The OAuth tokens the instance issued: access tokens that expire, and refresh tokens.
///
/// A grant checks the user's password (or login state) outside the store, so a `sys_user` write can come between
/// that check and the issue. Each grant takes the ``generation`` before it reads the user, and the store issues
/// nothing when a revocation began since (``beginRevocation()``): the grant checks the user again.
struct TokenStore: Sendable {
    struct Grant: Sendable {
        var userName: String
        var clientID: String
        var expires: Date
        /// The user's stored password hash when the token was issued: a new password ends the grant.
        var passwordHash: String
    }

    private var accessTokens: [String: Grant] = [:]
    private var refreshTokens: [String: Grant] = [:]
    /// How many revocations began.
    private(set) var generation = 0

    /// How long a refresh token lives (the platform's default is 100 days).
    static let refreshLifetime: TimeInterval = 100 * 24 * 3600

    /// Issues an access token for a user.
    mutating func issueAccessToken(
        userName: String, clientID: String, passwordHash: String, lifetime: TimeInterval, now: Date
    ) -> String {
        removeExpired(now: now)
        let token = Self.randomToken()
        accessTokens[token] = Grant(
            userName: userName, clientID: clientID, expires: now.addingTimeInterval(lifetime),
            passwordHash: passwordHash)
        return token
    }

    /// Issues a refresh token for a user.
    private mutating func issueRefreshToken(userName: String, clientID: String, passwordHash: String, now: Date) -> String {
        removeExpired(now: now)
        let token = Self.randomToken()
        refreshTokens[token] = Grant(
            userName: userName, clientID: clientID, expires: now.addingTimeInterval(Self.refreshLifetime),
            passwordHash: passwordHash)
        return token
    }

    /// Issues an access token, and a refresh token when `refreshable`, for a user whose login was checked in
    /// `generation`; nil when a revocation began since, so the check may have read what a write then changed.
    mutating func issue(
        userName: String, clientID: String, passwordHash: String, refreshable: Bool, lifetime: TimeInterval,
        now: Date, checkedIn generation: Int
    ) -> (access: String, refresh: String?)? {
        guard generation == self.generation else { return nil }
        let access = issueAccessToken(
            userName: userName, clientID: clientID, passwordHash: passwordHash, lifetime: lifetime, now: now)
        let refresh =
            refreshable
            ? issueRefreshToken(userName: userName, clientID: clientID, passwordHash: passwordHash, now: now) : nil
        return (access, refresh)
    }

    /// Marks the start of a revocation, after a `sys_user` write and before its users' tokens are checked: a grant
    /// checked before it issues nothing.
    mutating func beginRevocation() {
        generation &+= 1
    }

    /// The number of access and refresh tokens held (expired ones are dropped whenever a token is issued).
    var count: Int { accessTokens.count + refreshTokens.count }

    /// The users holding a token.
    var userNames: Set<String> {
        Set(accessTokens.values.map(\.userName)).union(refreshTokens.values.map(\.userName))
    }

    /// Ends every access and refresh token of `userName` not issued under `passwordHash` (all of them when nil:
    /// the user is gone, inactive or locked out).
    mutating func revoke(userName: String, keeping passwordHash: String?) {
        func kept(_ grant: Grant) -> Bool { grant.userName != userName || grant.passwordHash == passwordHash }
        accessTokens = accessTokens.filter { kept($0.value) }
        refreshTokens = refreshTokens.filter { kept($0.value) }
    }

    /// Ends an access or refresh token; whether it was one.
    mutating func revoke(token: String) -> Bool {
        accessTokens.removeValue(forKey: token) != nil || refreshTokens.removeValue(forKey: token) != nil
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
        refreshTokens = refreshTokens.filter { $0.value.expires > now }
    }

    private static func randomToken() -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        var generator = SystemRandomNumberGenerator()
        return String((0..<86).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
    }
}
