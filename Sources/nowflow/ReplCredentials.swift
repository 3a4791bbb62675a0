import Foundation
import NowData

#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The instance and credentials of a REPL on a bare URL (`--instance https://...`, or `NOW_INSTANCE`), which has
/// no profile to give them: `NOW_TOKEN` (a bearer token), else `NOW_USER` and `NOW_PASSWORD` (or `SN_USERNAME`
/// and `SN_PASSWORD`), the password asked for on a terminal, never echoed and never saved, when only the user is
/// set.
enum ReplCredentials {
    /// What a 401 from a bare URL tells to set.
    static let unauthorizedHint =
        "the instance wants credentials: set NOW_USER and NOW_PASSWORD (or SN_USERNAME and SN_PASSWORD), or NOW_TOKEN, "
        + "or use a profile of ~/.nowflow/config.yaml (--instance PROFILE)"

    /// A bearer token given as it is.
    private struct Token: AccessTokenProvider {
        let token: String
        func accessToken() async throws -> String { token }
    }

    /// The instance the environment names when neither `--instance` nor the job does: `NOW_INSTANCE`, else
    /// `SN_HOST` (a host name is `https://HOST`).
    static func instance(environment: [String: String]) -> String? {
        if let instance = nonEmpty(environment["NOW_INSTANCE"]) { return instance }
        guard let host = nonEmpty(environment["SN_HOST"]) else { return nil }
        return host.contains("://") ? host : "https://\(host)"
    }

    /// The authentication from the environment, and the values to mask; nil when it gives none. `password` asks
    /// for the password of a user when the environment has none (nil: it cannot be asked).
    static func authentication(
        environment: [String: String], password ask: (String) -> String? = askPassword
    ) -> (authentication: NowAuthentication, secrets: [String])? {
        if let token = nonEmpty(environment["NOW_TOKEN"]) { return (.bearer(Token(token: token)), [token]) }
        guard let user = nonEmpty(environment["NOW_USER"]) ?? nonEmpty(environment["SN_USERNAME"]) else { return nil }
        let given = nonEmpty(environment["NOW_PASSWORD"]) ?? nonEmpty(environment["SN_PASSWORD"])
        guard let password = given ?? ask(user) else { return nil }
        return (.basic(user: user, password: password), [password])
    }

    /// The password of `user`, read from the terminal with echo off; nil when standard input is not a terminal.
    static func askPassword(for user: String) -> String? {
        guard isatty(STDIN_FILENO) == 1 else { return nil }
        var saved = termios()
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { return nil }
        var silent = saved
        silent.c_lflag &= ~tcflag_t(ECHO)
        FileHandle.standardError.write(Data("password for \(user): ".utf8))
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
        defer {
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
            FileHandle.standardError.write(Data("\n".utf8))
        }
        return Swift.readLine(strippingNewline: true).flatMap(nonEmpty)
    }

    private static func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        return text
    }
}
