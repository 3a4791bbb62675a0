import NowData

extension RunResult {
    /// The run's outcome for a person: the status, then every record touched (so that a half-failed run can be
    /// finished or undone by hand) and every write a dry run did not send.
    ///
    /// ```
    /// Incident lifecycle: passed (7 steps, 41 ms)
    ///   created incident 1c7b... by step 2 'incident' (create)
    /// ```
    public func summaryText() -> String {
        let ran = steps.filter { $0.status != .skipped }.count
        var lines: [String] = []
        let timing = "\(ran) step\(ran == 1 ? "" : "s") run, \(milliseconds) ms\(dryRun ? ", dry run" : "")"
        switch status {
        case .passed: lines.append("\(job): passed (\(timing))")
        case .failed, .assertionFailed:
            lines.append("\(job): \(status == .failed ? "failed" : "assertion failed") (\(timing))")
            if let error { lines.append("  \(error)") }
        }
        if !records.isEmpty {
            lines.append(
                status == .passed
                    ? "records touched:" : "records touched before the failure (finish or undo them by hand):")
            for record in records {
                lines.append("  \(record.action.rawValue) \(record.table) \(record.sysID) by \(record.step)")
            }
        }
        if !plannedWrites.isEmpty {
            lines.append("writes not sent (dry run):")
            for write in plannedWrites { lines.append("  \(write.description)") }
        }
        return lines.joined(separator: "\n")
    }
}

extension RunResult {
    /// Every step result and variable as JSON, one per line, dates shown through `dates` (`--verbose`).
    public func resultsText(dates: JobDates) -> String {
        func json(_ value: JSONValue?) -> String { dates.shown(value ?? .null).sortingKeys().jsonText() }
        let results = self.results.keys.sorted().map { "steps.\($0) = \(json(self.results[$0]))" }
        let variables = vars.keys.sorted().map { "vars.\($0) = \(json(vars[$0]))" }
        return (results + variables).joined(separator: "\n")
    }
}
