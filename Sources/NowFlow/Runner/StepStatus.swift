/// How a step ended.
public enum StepStatus: String, Sendable, Hashable {
    /// The step did its work (and its `retry.until` held).
    case passed
    /// `when` was false.
    case skipped
    /// The step failed; the job stops (unless `continue_on_error`).
    case failed
    /// An `assert` did not hold.
    case assertionFailed = "assertion_failed"
}
