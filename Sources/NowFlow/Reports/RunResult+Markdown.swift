import Foundation

extension RunResult {
    /// How many records of a run are listed in its Markdown summary; the others are counted.
    static let markdownRecordLimit = 50

    /// The run as Markdown for a CI job's summary page (GitHub Actions' `$GITHUB_STEP_SUMMARY`): the outcome, a
    /// table of the steps (those of a `foreach` or `include` body only when they failed), why the run failed and
    /// where, the records touched, the writes a dry run did not send, and `changes`, the link to what the run
    /// changed on its instance, when it has one. The messages are masked as in every output.
    ///
    /// ```markdown
    /// ### Close stale incidents: passed
    ///
    /// `close.yaml`: 3 steps run in 41 ms
    ///
    /// | Step | Status | Time | Result |
    /// | --- | --- | ---: | --- |
    /// | step 1 'stale' (query) | ok | 6 ms | 2 records from incident |
    /// ```
    public func markdownSummary(changes: String? = nil) -> String {
        let outcome: String
        switch status {
        case .passed: outcome = dryRun ? "dry run passed" : "passed"
        case .failed: outcome = "failed"
        case .assertionFailed: outcome = "assertion failed"
        case .invalid: outcome = "did not validate"
        case .notRun: outcome = "not run"
        default: outcome = "interrupted by \(status.signal?.rawValue ?? "a signal")"
        }
        var lines = ["### \(Self.markdownText(job)): \(outcome)", ""]
        lines += ["`\(file)`: \(stepsRun) in \(milliseconds) ms\(dryRun ? " (dry run: writes not sent)" : "")", ""]
        // A foreach or include body's steps (`2[0].1`, `3.1`) only when they failed: their step has a line.
        let nested = { (step: StepOutcome) in step.number.contains("[") || step.number.contains(".") }
        let shown = steps.filter { !nested($0) || $0.status == .failed || $0.status == .assertionFailed }
        if !shown.isEmpty {
            lines += ["| Step | Status | Time | Result |", "| --- | --- | ---: | --- |"]
            for step in shown {
                let mark: String
                switch step.status {
                case .passed: mark = "ok"
                case .skipped: mark = "skip"
                case .notRun: mark = "not run"
                case .failed: mark = step.continued ? "FAIL (continued)" : "FAIL"
                case .assertionFailed: mark = step.continued ? "ASSERT (continued)" : "ASSERT"
                }
                let cells = [step.label, mark, "\(step.milliseconds) ms", step.message].map(Self.markdownCell)
                lines.append("| " + cells.joined(separator: " | ") + " |")
            }
            lines.append("")
        }
        if let error {
            lines += ["**Why:** " + (errorLocation.map { "`\($0)`: " } ?? "") + Self.markdownCell(error), ""]
        }
        if let counts = changeCountLine { lines += [counts, ""] }
        if !unlisted.isEmpty { lines += ["foreach: " + Self.markdownText(unlisted.summary), ""] }
        let (left, cleanedUp) = touchedRecordLines()
        let touched = (left + cleanedUp).sorted { $0.order < $1.order }
        if !touched.isEmpty {
            let byHand = status != .passed && !left.isEmpty
            lines.append(
                byHand ? "**Records touched** (finish or undo those left changed by hand):" : "**Records touched:**")
            lines.append("")
            lines += touched.prefix(Self.markdownRecordLimit).map { "- " + Self.markdownText($0.text) }
            if touched.count > Self.markdownRecordLimit {
                lines.append("- and \(touched.count - Self.markdownRecordLimit) more (the job's log lists them all)")
            }
            lines.append("")
        }
        if !plannedWrites.isEmpty {
            let writes = plannedWrites.count
            lines += ["\(writes) write\(writes == 1 ? "" : "s") not sent (dry run): the job's log lists them.", ""]
        }
        if let changes { lines += ["[What changed on the instance](\(changes))", ""] }
        return lines.joined(separator: "\n")
    }

    /// Text in Markdown's running text: `\`, `*`, `_`, `` ` ``, `[`, `]`, `<`, `>`, `|` and `#` escaped, so that a
    /// value reads as written.
    static func markdownText(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if "\\*_`[]<>|#".contains(character) { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }

    /// Text in a table cell: as running text, on one line.
    static func markdownCell(_ text: String) -> String {
        markdownText(text).replacingOccurrences(of: #"[\r\n]+"#, with: " ", options: .regularExpression)
    }
}
