/// The JUnit report's counts of a job (``RunReport/junitXML()``).
extension RunResult {
    /// The counts of the job's test suite: a test per step and per error diagnostic, and one for an error neither
    /// has (``hasUnplacedError``).
    var junitCounts: JUnitCounts {
        let invalid = diagnostics.filter { !$0.isWarning }.count
        let unplaced = hasUnplacedError ? 1 : 0
        return JUnitCounts(
            tests: steps.count + invalid + unplaced,
            failures: steps.filter { $0.status == .assertionFailed }.count + invalid,
            errors: steps.filter { $0.status == .failed }.count + unplaced,
            skipped: steps.filter { $0.status == .skipped || $0.status == .notRun }.count)
    }

    /// Whether the job did not pass without a failed step or an error diagnostic to show why.
    var hasUnplacedError: Bool {
        status != .passed && status != .notRun
            && !steps.contains { $0.status == .failed || $0.status == .assertionFailed }
            && !diagnostics.contains { !$0.isWarning }
    }
}
