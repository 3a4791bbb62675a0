import Foundation

/// The authorization codes `/oauth_auth.do` gave out: each single-use and short-lived, bound to its client, its
/// redirect URI, the user who consented and any PKCE challenge.
///
/// A code is taken at its first exchange, whatever the exchange's outcome; one brought again within its lifetime
/// is a replay (RFC 6749 §4.1.2): the tokens its first exchange got are ended.
struct AuthorizationCodeStore: Sendable {
    /// What a code was given for.
    struct Grant: Sendable {
        var clientID: String
        /// The redirect URI the consent sent the code to.
        var redirectURI: String
        /// Whether the authorization request named the redirect URI (then the exchange must name it too).
        var redirectURIGiven: Bool
        var userName: String
        /// The user's stored password hash when they consented: a new password ends the grant.
        var passwordHash: String
        /// The PKCE `code_challenge`; nil when the request had none.
        var challenge: String?
        /// `S256` or `plain`.
        var challengeMethod: String
        var expires: Date
    }

    /// How long a code lives (RFC 6749 recommends at most ten minutes; the platform's codes last a minute).
    static let lifetime: TimeInterval = 60
    /// The most codes held, used ones included; past it the oldest are forgotten.
    static let capacity = 10_000

    private var codes: [String: Grant] = [:]
    /// The codes exchanged within their lifetime, with when they expire and the tokens they got.
    private var used: [String: (expires: Date, tokens: [String])] = [:]

    /// A new code for `grant`.
    mutating func issue(_ grant: Grant, now: Date) -> String {
        removeExpired(now: now)
        if codes.count >= Self.capacity, let oldest = codes.min(by: { $0.value.expires < $1.value.expires })?.key {
            codes[oldest] = nil
        }
        let code = WebSessions.token()
        codes[code] = grant
        return code
    }

    /// What taking a code found.
    enum Taken {
        /// A code not used before and not expired: it is now used.
        case grant(Grant)
        /// A code already exchanged: the tokens its exchange got, to end.
        case replayed(tokens: [String])
        /// No such code, or an expired one.
        case unknown
    }

    /// Takes `code` for its one exchange.
    mutating func take(_ code: String, now: Date) -> Taken {
        removeExpired(now: now)
        if let replay = used[code] { return .replayed(tokens: replay.tokens) }
        guard let grant = codes.removeValue(forKey: code) else { return .unknown }
        if used.count >= Self.capacity { used.removeAll() }
        used[code] = (grant.expires, [])
        return .grant(grant)
    }

    /// Notes the tokens the exchange of `code` got, for ending them at a replay.
    mutating func record(_ tokens: [String], for code: String) {
        used[code]?.tokens = tokens
    }

    private mutating func removeExpired(now: Date) {
        codes = codes.filter { $0.value.expires > now }
        used = used.filter { $0.value.expires > now }
    }
}
