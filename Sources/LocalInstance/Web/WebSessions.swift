import Foundation
import Synchronization

/// The sessions of the web views and of the APIs, in memory (a restart logs everyone out): a session cookie's id →
/// its user and CSRF token, the tokens of users who send Basic credentials, and the tokens of login forms.
final class WebSessions: Sendable {
    /// One logged-in browser or client.
    struct Session: Sendable {
        /// The user the session acts as: the one who logged in, or the one they impersonate.
        var userName: String
        var csrfToken: String
        /// The password hash of the user who logged in: a session ends when it changes (new password, locked out,
        /// deactivated).
        var passwordHash: String
        var lastUsed: Date
        /// The user who logged in and impersonates ``userName``; nil when the session acts as itself.
        var impersonator: String?

        /// The user who logged in.
        var loginUser: String { impersonator ?? userName }
    }

    /// The most sessions kept; past it the least recently used is forgotten.
    static let capacity = 10_000

    /// How long a session may go unused before it ends (the platform's default session timeout is 30 minutes).
    static let idleTimeout: TimeInterval = 30 * 60

    private let sessions = Mutex<[String: Session]>([:])
    private let basicTokens = Mutex<[String: String]>([:])

    /// A new session for `userName`; its id goes into the cookie.
    func open(userName: String, passwordHash: String, now: Date) -> String {
        let id = Self.token()
        let session = Session(
            userName: userName, csrfToken: Self.token(), passwordHash: passwordHash, lastUsed: now, impersonator: nil)
        sessions.withLock { sessions in
            sessions = sessions.filter { now.timeIntervalSince($0.value.lastUsed) < Self.idleTimeout }
            if sessions.count >= Self.capacity,
                let oldest = sessions.min(by: { $0.value.lastUsed < $1.value.lastUsed })?.key
            {
                sessions[oldest] = nil
            }
            sessions[id] = session
        }
        return id
    }

    /// The session of `id` when it is open and was used within ``idleTimeout``; marks it used.
    func session(_ id: String, now: Date) -> Session? {
        sessions.withLock { sessions in
            guard var session = sessions[id] else { return nil }
            guard now.timeIntervalSince(session.lastUsed) < Self.idleTimeout else {
                sessions[id] = nil
                return nil
            }
            session.lastUsed = now
            sessions[id] = session
            return session
        }
    }

    /// Makes the session of `id` act as `userName`, impersonated by the user who logged in (or as that user again,
    /// ending the impersonation, when `userName` is theirs); false when the session is gone.
    func impersonate(_ id: String, as userName: String) -> Bool {
        sessions.withLock { sessions in
            guard var session = sessions[id] else { return false }
            let login = session.loginUser
            session.userName = userName
            session.impersonator = userName == login ? nil : login
            sessions[id] = session
            return true
        }
    }

    /// Ends the session of `id`.
    func close(_ id: String) {
        _ = sessions.withLock { $0.removeValue(forKey: id) }
    }

    /// The CSRF token of a user who sends Basic credentials (a browser sends them with every request, so their
    /// forms need a token too), made on first use.
    func basicToken(for userName: String) -> String {
        basicTokens.withLock { tokens in
            if let token = tokens[userName] { return token }
            if tokens.count >= Self.capacity { tokens.removeAll() }
            let token = Self.token()
            tokens[userName] = token
            return token
        }
    }

    /// 32 random bytes as 64 hexadecimal digits.
    static func token() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in
            let hex = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }

    /// Whether two tokens are equal, in a time that does not depend on where they differ.
    static func tokensMatch(_ given: String, _ expected: String) -> Bool {
        let a = Array(given.utf8)
        let b = Array(expected.utf8)
        guard a.count == b.count, !b.isEmpty else { return false }
        return zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
