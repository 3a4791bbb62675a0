import Foundation

#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The password of a user given by the environment without one (`NOW_USER` and no `NOW_PASSWORD`), asked on the
/// terminal with echo off: never shown, never saved (``EnvironmentCredentials`` asks it).
enum PasswordPrompt {
    /// The password of `user`, read from the terminal with echo off; nil when standard input is not a terminal.
    static func ask(for user: String) -> String? {
        guard isatty(STDIN_FILENO) == 1 else { return nil }
        var saved = termios()
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { return nil }
        var silent = saved
        silent.c_lflag &= ~tcflag_t(ECHO)
        OutputStreams.write("password for \(user): ", to: .error)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
        defer {
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
            OutputStreams.write("\n", to: .error)
        }
        return Swift.readLine(strippingNewline: true).flatMap { $0.isEmpty ? nil : $0 }
    }
}
