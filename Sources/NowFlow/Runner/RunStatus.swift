/// How a run ended, with the exit status `nowflow run` gives it.
public enum RunStatus: String, Sendable, Hashable {
    /// Every step passed, was skipped or failed under `continue_on_error`.
    case passed
    /// A step failed at run time (a request, an expression, an unreachable instance, refused credentials).
    case failed
    /// An `assert` did not hold.
    case assertionFailed = "assertion_failed"

    /// 0, 3 or 4 (Hurl's convention; 1 and 2 are for usage and invalid files).
    public var exitCode: Int32 {
        switch self {
        case .passed: 0
        case .failed: 3
        case .assertionFailed: 4
        }
    }
}
