/// How a run ended, with the exit status `nowflow run` gives it.
public enum RunStatus: String, Sendable, Hashable {
    /// Every step passed, was skipped or failed under `continue_on_error`.
    case passed
    /// A step failed at run time (a request, an expression, an unreachable instance, refused credentials).
    case failed
    /// An `assert` did not hold.
    case assertionFailed = "assertion_failed"
    /// SIGINT (Ctrl-C) stopped it: the remaining steps did not run, `finally` did (unless a second signal came).
    case interrupted
    /// SIGTERM stopped it, as SIGINT does.
    case terminated

    /// 0, 3 or 4 (Hurl's convention; 1 and 2 are for usage and invalid files), and 130 or 143 after a signal
    /// (128 plus its number, as shells report it).
    public var exitCode: Int32 {
        switch self {
        case .passed: 0
        case .failed: 3
        case .assertionFailed: 4
        case .interrupted: 130
        case .terminated: 143
        }
    }
}
