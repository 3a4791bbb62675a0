/// What a run changed, for the summary's counts and `--detailed-exitcode`.
extension RunResult {
    /// The exit status of `--detailed-exitcode`: 5 for a run (or dry run) that passed and changed (or would
    /// change) a record, so that a CI job can tell drift from a clean run; ``RunStatus/exitCode`` otherwise.
    public static let changedExitCode: Int32 = 5

    /// How many records the run changed, each counted once (created, updated, deleted, possibly created), and
    /// each write of the foreach items counted, not listed (``unlisted``); in a dry run, how many it would change
    /// (the records its writes not sent concern).
    public var changedRecordCount: Int {
        if dryRun {
            var seen: Set<String> = []
            var creates = 0
            for write in plannedWrites {
                if write.method == "POST" { creates += 1 } else { seen.insert(write.path) }
            }
            return creates + seen.count
        }
        return Set(records.map { $0.table + "/" + $0.sysID }).count + unlisted.records.values.reduce(0, +)
    }

    /// How many records an `ensure` step found as they should be (`unchanged`, or `absent` as wanted).
    public var unchangedRecordCount: Int {
        (ensured["unchanged"] ?? 0) + (ensured["absent"] ?? 0)
    }

    /// The exit status: ``RunStatus/exitCode``, or with `detailed` (`--detailed-exitcode`)
    /// ``changedExitCode`` for a passed run that changed or would change a record.
    public func exitCode(detailed: Bool) -> Int32 {
        detailed && status == .passed && changedRecordCount > 0 ? Self.changedExitCode : status.exitCode
    }

    /// `2 records changed, 3 unchanged` (`would change` in a dry run), after a run with an `ensure` step; a count
    /// of zero is left out (`3 records unchanged`).
    var changeCountLine: String? {
        guard !ensured.isEmpty else { return nil }
        let changed = changedRecordCount
        let unchanged = unchangedRecordCount
        func records(_ count: Int) -> String { "\(count) record\(count == 1 ? "" : "s")" }
        switch (changed, unchanged) {
        case (0, 0): return nil
        case (_, 0): return "\(records(changed)) \(dryRun ? "would change" : "changed")"
        case (0, _): return "\(records(unchanged)) unchanged"
        default: return "\(records(changed)) \(dryRun ? "would change" : "changed"), \(unchanged) unchanged"
        }
    }
}
