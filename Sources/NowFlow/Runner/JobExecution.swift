import Foundation
import NowData

/// The state of one run: the service, the outcomes so far, and the records touched. Used by one task only.
final class JobExecution {
    let service: NowTableService
    let options: RunOptions
    /// Masks every secret of the job (and of the jobs it includes, once they start).
    var masker: SecretMasker
    var outcomes: [StepOutcome] = []
    var touched: [TouchedRecord] = []
    /// The number (or name) of each record touched, by sys_id, when the instance gave one.
    var numbers: [String: String] = [:]
    var planned: [PlannedWrite] = []
    /// How many records the `ensure` steps found in each state (`created`, `unchanged`, ...).
    var ensured: [String: Int] = [:]
    /// The foreach items counted instead of listed (``UnlistedOutcomes``).
    var unlisted = UnlistedOutcomes()
    /// The job file of the steps running: the job's, an included job's during its steps.
    var file = ""
    /// In a dry run, the transport under `service` that keeps the writes instead of sending them.
    let dryRun: DryRunTransport?

    /// The answers NowData retried, for the progress lines; nil: not noted.
    var retries: RetryTally?

    /// Between the job's date format and ServiceNow's.
    let dates: JobDates
    /// The tags of the steps around the one running (a foreach's, an include's), which count as its own.
    var enclosingTags: Set<String> = []
    /// Why `--tags` or `--skip-tags` left out each step with an id that they left out.
    var tagSkipped: [String: String] = [:]
    /// The run's warnings (``RunResult/warnings``).
    var warnings: [String] = []
    /// The dates of the results shown under each step's line (``RunOptions/display``), in the display's zone.
    var displayDates: JobDates?

    /// The directory that relative paths of `attach` and `download` start from: the job file's, or the current
    /// directory.
    var baseDirectory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)

    /// The shard whose items a `foreach` over records runs (``RunOptions/shard``); nil inside the body of a foreach
    /// it split, whose nested foreach steps run every item of the shard's item.
    var foreachShard: Shard?

    /// The attachments the run attached, by the `table/sys_id` of their record: deleting the record deletes them.
    var attachmentsByRecord: [String: [String]] = [:]

    /// The instance's dictionary as far as the checks of writes by query read it (``verifiedMatches(_:query:max:verb:)``),
    /// starting from the name check's (``RunOptions/checkedDictionary``) when there is one.
    var verificationDictionary: InstanceDictionary? {
        didSet { namingFields = [:] }
    }

    /// The fields that name the records of each table (``RecordName/fields(of:in:)``), looked up once a table (and
    /// again when the dictionary grows), not at each step.
    private var namingFields: [String: [String]] = [:]

    /// The fields that name a record of `table`, its display field first when the run read its dictionary (the
    /// name check's, or the checks of writes by query).
    func naming(_ table: String) -> [String] {
        if let fields = namingFields[table] { return fields }
        let fields = RecordName.fields(of: table, in: verificationDictionary ?? options.checkedDictionary.dictionary)
        namingFields[table] = fields
        return fields
    }

    /// The queries whose first page was read and whose `foreach` reads the rest, by step id.
    var openStreams: [String: OpenStream] = [:]

    /// The Attachment API, over the same configuration (and so the same transport and credentials) as `service`.
    lazy var attachmentService = NowAttachmentService(configuration: service.configuration)

    init(
        service: NowTableService, options: RunOptions, masker: SecretMasker, dates: JobDates,
        dryRun: DryRunTransport?
    ) {
        self.service = service
        self.options = options
        self.masker = masker
        self.dates = dates
        self.dryRun = dryRun
        foreachShard = options.shard
    }

    /// Runs `steps` in order; returns the failure that stopped them (a failure under `continue_on_error` does
    /// not), or with `stopOnFailure: false` (for `finally`) runs them all and returns the first failure.
    func runList(_ steps: [Step], prefix: String, scope: inout Scope, stopOnFailure: Bool = true) async -> StepFailure?
    {
        var first: StepFailure?
        for (index, step) in steps.enumerated() {
            let number = "\(prefix)\(index + 1)"
            if let reason = interruptionReason {
                // A foreach body's steps are not listed one by one: its foreach is.
                if !prefix.hasSuffix(".") { skipRemaining(steps[index...], from: index, prefix: prefix, reason) }
                return first ?? StepFailure(reason)
            }
            if let failure = await execute(step, number: number, scope: &scope) {
                first = first ?? failure
                if let reason = interruptionReason {
                    if !prefix.hasSuffix(".") {
                        skipRemaining(steps[(index + 1)...], from: index + 1, prefix: prefix, reason)
                    }
                    return first
                }
                if stopOnFailure { return first }
            }
        }
        return first
    }

    /// Runs one step with its `when`, `retry` and `continue_on_error`; returns its failure, labelled with the
    /// step, unless it continued.
    func execute(_ step: Step, number: String, scope: inout Scope) async -> StepFailure? {
        let start = ContinuousClock.now
        var draft = StepOutcome(
            number: number, id: step.id, kind: step.kind.name, status: .passed, continued: false, milliseconds: 0,
            message: "")
        (draft.file, draft.line) = (file, step.line)
        if let reason = tagSkip(step) {
            if let id = step.id { tagSkipped[id] = reason }
            finish(draft, .skipped, reason, start: start)
            return nil
        }
        if step.once, let shard = options.shard, shard.index != 1 {
            finish(draft, .skipped, "once: runs on shard 1/\(shard.count), not \(shard)", start: start)
            return nil
        }
        options.onEvent(.stepStarted(draft.label))
        let outerTags = enclosingTags
        enclosingTags.formUnion(step.tags)
        defer { enclosingTags = outerTags }
        if let when = step.when {
            do {
                guard try when.evaluateCondition(in: scope) else {
                    finish(draft, .skipped, "when was false", start: start)
                    return nil
                }
            } catch {
                return fail(draft, step, StepFailure("when: \(error.message)"), start: start)
            }
        }
        _ = retries?.takeNote()
        let attempts = step.retry?.attempts ?? 1
        var failure = StepFailure("did not run")
        for attempt in 1...attempts {
            if attempt > 1, let delay = step.retry?.delay {
                if let interruption = options.interruption {
                    _ = try? await interruption.cancellable { try await Task.sleep(for: delay) }
                } else {
                    try? await Task.sleep(for: delay)
                }
            }
            if attempt > 1, let reason = interruptionReason {
                failure = StepFailure(reason)
                break
            }
            do throws(StepFailure) {
                let performed: (StepResult, String)
                do throws(StepFailure) {
                    performed = try await perform(step, number: number, label: draft.label, scope: &scope)
                } catch {
                    planWrites(of: draft.label)
                    throw error
                }
                planWrites(of: draft.label)
                let (result, summary) = performed
                if let id = step.id { scope.steps[id] = result }
                if let until = step.retry?.until {
                    do {
                        guard try until.evaluateCondition(in: scope) else {
                            failure = StepFailure(
                                "retry.until is still false after \(attempt) attempt\(attempt == 1 ? "" : "s")"
                                    + until.referenceValues(in: scope))
                            continue
                        }
                    } catch {
                        failure = StepFailure("retry.until: \(error.message)")
                        continue
                    }
                }
                let tries = attempt > 1 ? " after \(attempt) attempts" : ""
                let retried = retries?.takeNote().map { ", \($0)" } ?? ""
                finish(
                    draft, .passed, summary + tries + retried, start: start, shown: shownLines(of: step, result, scope: scope))
                return nil
            } catch {
                failure = error
            }
        }
        return fail(draft, step, failure, start: start)
    }

    /// Reports the writes a dry run kept while the step labelled `label` ran: they were not sent.
    private func planWrites(of label: String) {
        for kept in dryRun?.takeWrites() ?? [] {
            let write = PlannedWrite(
                step: label, request: kept.request, before: kept.before, naming: kept.table.map(naming) ?? RecordName.fields,
                content: kept.content, masker: masker)
            planned.append(write)
        }
    }

    /// Why a dry run does not enforce `failure`, or nil when it does. A dry run is a run until its first withheld
    /// write: until then every assert and expression read only what the instance answered, and is enforced (a
    /// read-only job dry-runs exactly as it runs). After it, the records a dry run pretends to write are not the
    /// instance's: an assertion may be about them, and an expression may fail on their stand-ins (a reference that
    /// is a plain sys_id, a field left empty). The instance's own answers are always enforced.
    private func dryRunExcuse(for failure: StepFailure) -> String? {
        guard options.dryRun, !failure.fromInstance, !planned.isEmpty else { return nil }
        if failure.isAssertion { return "not enforced in a dry run: \(failure.message)" }
        return "not enforced in a dry run, it may read stand-ins for writes not sent: \(failure.message)"
    }

    /// Why no further step or request may start (`interrupted by SIGINT`, `stopped by a second SIGTERM`), or nil
    /// while the run goes on.
    var interruptionReason: String? {
        guard let interruption = options.interruption, interruption.isStopping else { return nil }
        if let second = interruption.finallySignal { return "stopped by a second \(second.rawValue)" }
        return interruption.firstSignal.map { "interrupted by \($0.rawValue)" }
    }

    /// Reports `steps` (the rest of a list, from `index`) as not run.
    private func skipRemaining(_ steps: ArraySlice<Step>, from index: Int, prefix: String, _ reason: String) {
        for outcome in RunResult.notRunSteps(steps, from: index, prefix: prefix, file: file, reason: reason) {
            outcomes.append(outcome)
            options.onEvent(.stepFinished(outcome))
        }
    }

    private func fail(_ draft: StepOutcome, _ step: Step, _ failure: StepFailure, start: ContinuousClock.Instant)
        -> StepFailure?
    {
        var failure = failure
        if let reason = interruptionReason {
            // Interrupted: the step failed because its request was cancelled; continue_on_error does not apply.
            failure.message = "\(reason): \(failure.message)"
            finish(draft, .failed, failure.message, start: start)
            var stopped = StepFailure("\(draft.label): \(failure.message)", fromInstance: true)
            stopped.location = failure.location ?? (step.line, step.column)
            return stopped
        }
        if let excuse = dryRunExcuse(for: failure) {
            finish(draft, .skipped, excuse, start: start)
            return nil
        }
        var outcome = draft
        outcome.continued = step.continueOnError
        finish(outcome, failure.isAssertion ? .assertionFailed : .failed, failure.message, start: start)
        guard !step.continueOnError else { return nil }
        var stopped = StepFailure(
            "\(draft.label): \(failure.message)", isAssertion: failure.isAssertion, fromInstance: failure.fromInstance)
        stopped.location = failure.location ?? (step.line, step.column)
        return stopped
    }

    private func finish(
        _ draft: StepOutcome, _ status: StepStatus, _ message: String, start: ContinuousClock.Instant,
        shown: [String] = []
    ) {
        var outcome = draft
        outcome.status = status
        outcome.message = masker(message)
        outcome.shown = shown.map { masker($0) }
        outcome.milliseconds = JobRunner.milliseconds(since: start)
        outcomes.append(outcome)
        options.onEvent(.stepFinished(outcome))
    }

    /// Does the step's work; returns `steps.<id>` and a short summary of what it did.
    private func perform(_ step: Step, number: String, label: String, scope: inout Scope) async throws(StepFailure) -> (
        StepResult, String
    ) {
        switch step.kind {
        case .query(let query): return try await perform(query, id: step.id, label: label, scope: scope)
        case .get(let get): return try await perform(get, scope: scope)
        case .create(let create): return try await perform(create, label: label, scope: scope)
        case .update(let update): return try await perform(update, label: label, scope: scope)
        case .delete(let delete): return try await perform(delete, label: label, scope: scope)
        case .extract(let extract): return try perform(extract, scope: scope)
        case .set(let assignments): return try perform(assignments, scope: &scope)
        case .assert(let assertion): return try perform(assertion, scope: scope)
        case .foreach(let foreach): return try await perform(foreach, number: number, label: label, scope: &scope)
        case .attach(let attach): return try await perform(attach, label: label, scope: scope)
        case .download(let download): return try await perform(download, scope: scope)
        case .attachments(let attachments): return try await perform(attachments, scope: scope)
        case .aggregate(let aggregate): return try await perform(aggregate, scope: scope)
        case .change(let change): return try await perform(change, label: label, scope: scope)
        case .importRows(let rows): return try await perform(rows, label: label, scope: scope)
        case .order(let order): return try await perform(order, label: label, scope: scope)
        case .include(let include): return try await perform(include, number: number, scope: scope)
        case .ensure(let ensure): return try await perform(ensure, label: label, scope: scope)
        case .http(let http): return try await perform(http, label: label, scope: scope)
        }
    }
}
