/// What a run changed, for the summary's counts and `--detailed-exitcode`.
extension RunResult {
    /// The exit status of `--detailed-exitcode`: 5 for a run (or dry run) that passed and changed (or would
    /// change) a record, so that a CI job can tell drift from a clean run; ``RunStatus/exitCode`` otherwise.
    public static let changedExitCode: Int32 = 5

    /// How many records the run changed, each counted once (created, updated, deleted, possibly created); in a
    /// dry run, how many it would change (the records its writes not sent concern).
    public var changedRecordCount: Int {
        if dryRun {
            var seen: Set<String> = []
            var creates = 0
            for write in plannedWrites {
                if write.method == "POST" { creates += 1 } else { seen.insert(write.path) }
            }
            return creates + seen.count
        }
        return Set(records.map { $0.table + "/" + $0.sysID }).count
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

    /// `records: 2 changed, 3 unchanged` (`would change` in a dry run), after a run with an `ensure` step.
    var changeCountLine: String? {
        guard !ensured.isEmpty else { return nil }
        let changed = changedRecordCount
        let noun = changed == 1 ? "record" : "records"
        return "\(changed) \(noun) \(dryRun ? "would change" : "changed"), \(unchangedRecordCount) unchanged"
    }
}
