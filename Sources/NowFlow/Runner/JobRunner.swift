import Foundation
import NowData

/// Runs a checked ``Job`` over NowData's `NowTableService`: its steps in order, then `finally` (also after a
/// failure), reporting each step as it goes.
///
/// ```swift
/// let job = try JobFile.load(path: "workflows/incident-lifecycle.yaml")
/// let result = await JobRunner(job: job, options: options).run()
/// exit(result.status.exitCode)
/// ```
public struct JobRunner: Sendable {
    /// The job to run.
    public let job: Job
    /// How to run it.
    public let options: RunOptions

    /// A runner for `job`; nothing is sent before ``run()``.
    public init(job: Job, options: RunOptions) {
        self.job = job
        self.options = options
    }

    /// Runs the job; never throws: every failure is in the result.
    public func run() async -> RunResult {
        let clock = ContinuousClock()
        let start = clock.now
        options.interruption?.enterSteps()
        let preparation: Preparation
        do {
            preparation = try prepare()
        } catch {
            var result = RunResult.notStarted(
                job, status: .failed, reason: "before the first step: \(error.message)", dryRun: options.dryRun)
            result.milliseconds = Self.milliseconds(since: start)
            return result
        }
        var scope = preparation.scope
        let masker = preparation.masker
        let execution = JobExecution(
            service: preparation.service, options: options, masker: masker, dates: job.dates(timeZone: nil),
            dryRun: preparation.dryRun)
        execution.retries = preparation.retries
        execution.baseDirectory = job.directory
        execution.displayDates = options.display.map { job.dates(timeZone: $0.timeZone) }
        execution.file = job.file
        let mainFailure = await execution.runList(job.steps, prefix: "", scope: &scope)
        if mainFailure != nil, execution.interruptionReason == nil { execution.listNotRun(job.steps, prefix: "") }
        options.interruption?.enterFinally()
        let finallyFailure = await execution.runList(
            job.finally, prefix: "finally ", scope: &scope, stopOnFailure: false)
        let (outputs, outputFailure) = execution.outputs(of: job, in: scope)
        let failure = mainFailure ?? finallyFailure ?? outputFailure
        let status: RunStatus
        if let signal = options.interruption?.firstSignal {
            status = RunStatus(stoppedBy: signal)
        } else {
            status = failure == nil ? .passed : failure?.isAssertion == true ? .assertionFailed : .failed
        }
        var result = RunResult(
            job: job.name, file: job.file, status: status, dryRun: options.dryRun,
            milliseconds: Self.milliseconds(since: start), steps: execution.outcomes,
            results: scope.steps.mapValues { execution.masker($0.json) },
            vars: scope.variables.mapValues { execution.masker($0.json) },
            records: execution.touched, recordNumbers: execution.numbers.mapValues { execution.masker($0) },
            unlisted: execution.unlisted,
            plannedWrites: execution.planned, error: failure.map { execution.masker($0.message) },
            errorLocation: failure?.location.map { "\(job.file):\($0.line):\($0.column)" }, ensured: execution.ensured,
            outputs: outputs, warnings: execution.warnings, shard: options.shard)
        result.changesPage = preparation.changesPage.page
        return result
    }

    /// A `--var` value read as YAML reads a plain scalar: `true`, `2`, `1.5` and `null` keep their types, and a
    /// number its text; nil for `.inf` and `.nan`, which JSON cannot hold.
    static func value(ofArgument text: String) -> JSONValue? {
        YAMLScalar(text: text, style: .plain).value
    }

    static func milliseconds(since start: ContinuousClock.Instant) -> Int {
        let elapsed = ContinuousClock.now - start
        return Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
    }
}
