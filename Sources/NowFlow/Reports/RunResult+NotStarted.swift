/// The results of jobs that did not start, so that a report lists every job and step that was asked for.
extension RunResult {
    /// A job that did not start: every step and `finally` step `not_run` for `reason` (`--fail-fast`, `its
    /// instance could not be opened`). With `status` ``RunStatus/failed`` or ``RunStatus/invalid``, the result's
    /// `error` is `error`, else `reason`.
    public static func notStarted(
        _ job: Job, status: RunStatus, reason: String, error: String? = nil, dryRun: Bool,
        diagnostics: [Diagnostic] = []
    ) -> RunResult {
        var result = RunResult(
            job: job.name, file: job.file, status: status, dryRun: dryRun, milliseconds: 0,
            steps: notRunSteps(job.steps, prefix: "", file: job.file, reason: reason)
                + notRunSteps(job.finally, prefix: "finally ", file: job.file, reason: reason),
            results: [:], vars: [:], records: [], plannedWrites: [],
            error: status == .failed || status == .invalid ? error ?? reason : nil)
        result.diagnostics = diagnostics
        return result
    }

    /// A file that did not validate and could not be read as a job (a job file or a vars file): no steps, its
    /// diagnostics, and its path as the job's name.
    public static func invalid(file: String, diagnostics: [Diagnostic], dryRun: Bool) -> RunResult {
        let errors = diagnostics.filter { !$0.isWarning }.count
        var result = RunResult(
            job: file, file: file, status: .invalid, dryRun: dryRun, milliseconds: 0, steps: [], results: [:],
            vars: [:], records: [], plannedWrites: [],
            error: "\(file) does not validate: \(errors) error\(errors == 1 ? "" : "s")")
        result.diagnostics = diagnostics
        return result
    }

    /// `steps` as `not_run` for `reason`, numbered `prefix` and their place from `index` on.
    static func notRunSteps(_ steps: some Collection<Step>, from index: Int = 0, prefix: String, file: String, reason: String)
        -> [StepOutcome]
    {
        steps.enumerated().map { offset, step in
            var outcome = StepOutcome(
                number: "\(prefix)\(index + offset + 1)", id: step.id, kind: step.kind.name, status: .notRun,
                continued: false, milliseconds: 0, message: "not run: \(reason)")
            (outcome.file, outcome.line) = (file, step.line)
            return outcome
        }
    }
}
