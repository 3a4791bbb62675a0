import Foundation
import NowData

/// How a job runs: the instance (through NowData only), variables, environment, dry run, and where progress goes.
///
/// ```swift
/// let options = RunOptions(
///     instanceURL: URL(string: "http://127.0.0.1")!, transport: instance.transport,
///     authentication: .basic(user: "admin", password: "admin"))
/// let result = await JobRunner(job: job, options: options).run()
/// ```
public struct RunOptions: Sendable {
    /// The instance's URL (for the embedded instance, any loopback URL: the transport answers).
    public var instanceURL: URL
    /// The transport requests travel through; nil means HTTP(S) through NowData's default, `CurlTransport`. A dry
    /// run wraps it: reads go through it, writes are kept and not sent.
    public var transport: (any NowTransport)?
    /// The authentication used when the job has no `auth` (a profile's, the environment's; none for the embedded
    /// instance, whose transport acts as its administrator).
    public var authentication: NowAuthentication
    /// Values masked as `***` in everything the run reports, besides the job's own secrets (a profile's
    /// credentials).
    public var secrets: [String]
    /// `--var name=value`: values that replace the job's `vars` of the same names, of the declared variable's type
    /// (see ``Job/value(ofVariable:argument:)``); a value not of that type fails the run before its first step.
    public var variables: [String: String]
    /// Values from `--vars-file` files (a later file's value of a name already won), for variables the job
    /// declares; checked against each variable's type as ``Job/value(ofVariable:given:from:)`` does. A `--var`
    /// of the same name wins.
    public var variableValues: [String: JSONValue] = [:]
    /// `--tags`: when not empty, only the steps with one of these tags (or `always`, or inside a step that has
    /// one) run; the others are reported skipped.
    public var tags: Set<String> = []
    /// `--skip-tags`: the steps with one of these tags (or inside a step that has one) are reported skipped.
    public var skipTags: Set<String> = []
    /// The environment `env.NAME` reads.
    public var environment: [String: String]
    /// Reads run, writes are kept in the result's ``RunResult/plannedWrites`` and not sent.
    public var dryRun: Bool
    /// How NowData retries failed requests.
    public var retryPolicy: RetryPolicy
    /// Where the name check keeps the instance's dictionary between runs (a remote instance's, under
    /// `~/.nowflow/schema/`); nil: read afresh each time.
    public var schemaCache: URL?
    /// Read the dictionary afresh even when ``schemaCache`` holds a recent one (`--refresh-schema`).
    public var refreshSchema = false
    /// The dictionary the name check read, which the run then checks run-time condition values against (none
    /// checked when no name check ran, as with `--offline`).
    public var checkedDictionary = CheckedDictionary()
    /// What stops the run cleanly on a signal (see ``RunInterruption``); nil: nothing does.
    public var interruption: RunInterruption?
    /// What paces the run's requests (shared with whoever shows the pace, such as progress lines); nil: a pacer of
    /// the job's `rate:`. Either way the instance's `X-RateLimit-*` headers pace the run before a rule refuses it.
    public var pacer: RequestPacer?
    /// `--shard K/N`: of each `foreach` over records, only the items this shard owns run (``Shard``), and a step
    /// with `once: true` runs on shard 1 only; nil: every item and step runs.
    public var shard: Shard?
    /// How each step's result is shown in its ``StepOutcome/shown`` lines; nil: not shown (`--quiet`, JSON).
    public var display: ResultDisplay?
    /// Called as the run goes: a step starts, finishes, pages, or a write is planned.
    public var onEvent: @Sendable (RunEvent) -> Void

    /// Options; only the instance is required.
    public init(
        instanceURL: URL, transport: (any NowTransport)? = nil, authentication: NowAuthentication = .none,
        secrets: [String] = [], variables: [String: String] = [:],
        environment: [String: String] = ProcessInfo.processInfo.environment,
        dryRun: Bool = false, retryPolicy: RetryPolicy = .default, interruption: RunInterruption? = nil,
        onEvent: @escaping @Sendable (RunEvent) -> Void = { _ in }
    ) {
        self.instanceURL = instanceURL
        self.transport = transport
        self.authentication = authentication
        self.secrets = secrets
        self.variables = variables
        self.environment = environment
        self.dryRun = dryRun
        self.retryPolicy = retryPolicy
        self.interruption = interruption
        self.onEvent = onEvent
    }
}
