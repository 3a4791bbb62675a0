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
        var lines: [String] = []
        let timing = "\(stepsRun), \(milliseconds) ms\(dryRun ? ", dry run" : "")"
        switch status {
        case .passed where dryRun:
            // A dry run proves less than a run: say how much it did not check (when it left anything unchecked).
            let excused = steps.filter { $0.status == .skipped && $0.message.hasPrefix("not enforced in a dry run") }
            let asserts = excused.filter { $0.kind == "assert" }.count
            var unchecked: [String] = []
            if asserts > 0 { unchecked.append("\(asserts) assert\(asserts == 1 ? "" : "s") not enforced") }
            let others = excused.count - asserts
            if others > 0 { unchecked.append("\(others) other step\(others == 1 ? "" : "s") not enforced") }
            lines.append("\(job): dry run passed\(unchecked.map { ", " + $0 }.joined()) (\(timing))")
        case .passed: lines.append("\(job): passed (\(timing))")
        case .failed, .assertionFailed:
            lines.append("\(job): \(status == .failed ? "failed" : "assertion failed") (\(timing))")
            if let error { lines.append("  " + (errorLocation.map { "\($0): " } ?? "") + error) }
        case .invalid, .notRun:
            lines.append("\(job): \(status == .invalid ? "invalid" : "not run")")
            if let error { lines.append("  " + error) }
        case .interrupted, .terminated, .hungUp, .outputClosed:
            lines.append("\(job): interrupted by \(status.signal?.rawValue ?? "a signal") (\(timing))")
            if let error { lines.append("  " + (errorLocation.map { "\($0): " } ?? "") + error) }
            let notRun = steps.filter { $0.status == .notRun }
            let main = notRun.filter { !$0.number.hasPrefix("finally") }.map(\.label)
            let cleanUp = notRun.filter { $0.number.hasPrefix("finally") }.map(\.label)
            if !main.isEmpty { lines.append("  not run: \(main.joined(separator: ", "))") }
            let stopped = steps.filter {
                $0.number.hasPrefix("finally") && $0.status == .failed && $0.message.hasPrefix("stopped by a second ")
            }
            let reason = (stopped.first?.message ?? notRun.last?.message.dropFirst("not run: ".count).description)?
                .prefix { $0 != ":" }
            if let reason, reason.hasPrefix("stopped by a second "), !(stopped.isEmpty && cleanUp.isEmpty) {
                var parts = ["  finally \(reason)"]
                if !stopped.isEmpty { parts.append("interrupted: " + stopped.map(\.label).joined(separator: ", ")) }
                if !cleanUp.isEmpty { parts.append("not run: " + cleanUp.joined(separator: ", ")) }
                lines.append(parts.joined(separator: "; "))
            }
        }
        if let counts = changeCountLine { lines.append(counts) }
        let (left, cleanedUp) = touchedRecordLines()
        if status == .passed {
            if !records.isEmpty { lines.append("records touched:") }
            lines += (left + cleanedUp).sorted { $0.order < $1.order }.map { "  " + $0.text }
        } else {
            if !left.isEmpty {
                lines.append("records left changed (finish or undo them by hand):")
                lines += left.map { "  " + $0.text }
            }
            if !cleanedUp.isEmpty {
                lines.append("records the run changed and deleted again:")
                lines += cleanedUp.map { "  " + $0.text }
            }
        }
        if !unlisted.isEmpty { lines.append("foreach: \(unlisted.summary)") }
        if !plannedWrites.isEmpty {
            lines.append("writes not sent (dry run):")
            for write in plannedWrites {
                lines.append("  \(write.description)")
                if let change = write.change { lines.append("    \(change)") }
            }
        }
        if !outputs.isEmpty {
            lines.append("outputs:")
            lines += outputs.map { "  \($0.key) = \($0.value == .null ? "null" : $0.value.text)" }
        }
        lines += warnings.map { "warning: \($0)" }
        return lines.joined(separator: "\n")
    }
}

extension RunResult {
    /// How many steps ran, in words (`no step run`, `1 step run`, `3 steps run`): those skipped or not run do not
    /// count.
    var stepsRun: String {
        let ran = steps.filter { $0.status != .skipped && $0.status != .notRun }.count
        return ran == 0 ? "no step run" : "\(ran) step\(ran == 1 ? "" : "s") run"
    }

    /// Each record touched, once, in the order first touched, with what happened to it
    /// (`incident INC0010061 (1c7b...): created by step 2 'incident' (create), updated 2x by step 4 (update)`):
    /// those left changed, and those whose last change was their deletion.
    func touchedRecordLines() -> (left: [(order: Int, text: String)], cleanedUp: [(order: Int, text: String)]) {
        var order: [String] = []
        var histories: [String: (table: String, sysID: String, actions: [(action: TouchedRecord.Action, step: String, count: Int)])] = [:]
        for record in records {
            let key = record.table + "/" + record.sysID
            var history = histories[key] ?? (record.table, record.sysID, [])
            if histories[key] == nil { order.append(key) }
            if let last = history.actions.last, last.action == record.action, last.step == record.step {
                history.actions[history.actions.count - 1].count += 1
            } else {
                history.actions.append((record.action, record.step, 1))
            }
            histories[key] = history
        }
        var left: [(Int, String)] = []
        var cleanedUp: [(Int, String)] = []
        for (index, key) in order.enumerated() {
            guard let history = histories[key] else { continue }
            let name = recordNumbers[history.sysID].map { "\(history.table) \($0) (\(history.sysID))" }
                ?? "\(history.table) \(history.sysID)"
            let done = history.actions.map { entry in
                "\(entry.action.rawValue)\(entry.count > 1 ? " \(entry.count)x" : "") by \(entry.step)"
            }
            let line = (index, "\(name): " + done.joined(separator: ", "))
            if history.actions.last?.action == .deleted { cleanedUp.append(line) } else { left.append(line) }
        }
        return (left, cleanedUp)
    }

    /// Every step result and variable as JSON, one per line, dates shown through `dates` (`--verbose`).
    public func resultsText(dates: JobDates) -> String {
        func json(_ value: JSONValue?) -> String { dates.shown(value ?? .null).sortingKeys().jsonText() }
        let results = self.results.keys.sorted().map { "steps.\($0) = \(json(self.results[$0]))" }
        let variables = vars.keys.sorted().map { "vars.\($0) = \(json(vars[$0]))" }
        return (results + variables).joined(separator: "\n")
    }
}
