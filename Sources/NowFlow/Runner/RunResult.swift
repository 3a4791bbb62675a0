import NowData

/// The outcome of a run: every step, the results and variables, and every record touched (masked: secrets
/// appear as `***`).
public struct RunResult: Sendable {
    /// The job's name (a file that did not validate: its path).
    public var job: String
    /// The job file's path.
    public var file: String
    /// How the run ended.
    public var status: RunStatus
    /// Whether writes were only planned.
    public var dryRun: Bool
    /// How long the run took.
    public var milliseconds: Int
    /// Every step that ran or was skipped, in order (foreach bodies before their foreach).
    public var steps: [StepOutcome]
    /// `steps.<id>` of every step that has an id and ran.
    public var results: [String: JSONValue]
    /// The variables at the end of the run.
    public var vars: [String: JSONValue]
    /// Every record created, updated or deleted, in order.
    public var records: [TouchedRecord]
    /// The number (or name) of each record touched, by sys_id, when the instance gave one.
    public var recordNumbers: [String: String] = [:]
    /// The steps and records of the `foreach` items counted, not listed in ``steps`` and ``records``: those past
    /// the first ``ForeachStep/listedItems`` of a foreach whose results no expression uses, whose steps passed.
    public var unlisted = UnlistedOutcomes()
    /// The writes a dry run did not send.
    public var plannedWrites: [PlannedWrite]
    /// The first failure, with the step's label: why the run did not pass.
    public var error: String?
    /// Where the step of ``error`` is written: `job.yaml:12:5`.
    public var errorLocation: String?
    /// How many records the `ensure` steps found in each state: `created`, `updated`, `unchanged`, `deleted`,
    /// `absent` (empty when no ensure step ran).
    public var ensured: [String: Int] = [:]
    /// The job's `outputs:`, in order, evaluated when its steps and `finally` have run.
    public var outputs: JSONObject = [:]
    /// What the run did not fail on but should be told: an output that is null because the step it reads was
    /// left out by `--tags` or `--skip-tags`.
    public var warnings: [String] = []
    /// The instance the job ran on, as the reports name it: `local`, or its URL without credentials (set by the
    /// command that ran it; empty when unknown).
    public var instance = ""
    /// The shard of the job's work this run did (`--shard K/N`); nil for a run of all of it.
    public var shard: Shard?
    /// Why the file did not validate (status ``RunStatus/invalid``): the job file's problems, a vars file's, or the
    /// name check's; warnings too.
    public var diagnostics: [Diagnostic] = []
    /// The path of the instance's web page of what changed (`/changes.do`), when the instance named one on its
    /// answers (a served local instance does, a ServiceNow instance does not); nil otherwise.
    public var changesPage: String?
}
