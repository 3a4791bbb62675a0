/// How a step ended.
public enum StepStatus: String, Sendable, Hashable, CaseIterable {
    /// The step did its work (and its `retry.until` held).
    case passed
    /// The step was passed over: `when` was false, `--tags` or `--skip-tags` left it out, or a dry run does not
    /// enforce its failure.
    case skipped
    /// The step did not start: an earlier step failed, a signal stopped the run, or the job did not start.
    case notRun = "not_run"
    /// The step failed; the job stops (unless `continue_on_error`).
    case failed
    /// An `assert` did not hold.
    case assertionFailed = "assertion_failed"
}
