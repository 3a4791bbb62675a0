extension JobExecution {
    /// Lists the steps of `steps` (numbered after `prefix`) that did not start because one before them failed, as
    /// `not_run` and without a progress line, so that the reports have every step.
    func listNotRun(_ steps: [Step], prefix: String) {
        let ran = outcomes.compactMap { $0.number.hasPrefix(prefix) ? Int($0.number.dropFirst(prefix.count)) : nil }
            .max() ?? 0
        let failed = outcomes.last { $0.number == prefix + String(ran) }.map { "\($0.label) failed" }
        outcomes += RunResult.notRunSteps(
            steps.dropFirst(ran), from: ran, prefix: prefix, file: file, reason: failed ?? "a step failed")
    }
}
