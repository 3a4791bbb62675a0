import Foundation
import NowData
import Synchronization

/// The REPL's engine: runs the steps typed at the prompt and the steps of a loaded job one at a time, on the same
/// job builder and executor as `nowflow run`, keeping every result as `steps.<id>`; answers the `:` commands;
/// renders results; completes words.
///
/// ```swift
/// let session = try ReplSession(options: options, job: try ReplJob.load(path: "job.yaml"))
/// print(await session.handle("query incident active=true limit=5").text)
/// print(await session.handle(":next").text)
/// ```
///
/// A failed step (a bad line, a bad expression, a server error, a cancelled request) is answered with one message;
/// the session's variables stay as they were.
public actor ReplSession {
    let options: RunOptions
    let loaded: ReplJob?
    /// `--instance` as given, written by `:save` when it is not the local instance.
    let instanceName: String?
    /// What a 401 tells to set.
    let unauthorizedHint: String?
    let width: @Sendable () -> Int
    let service: NowTableService
    /// In a dry run, the transport of `service`, which keeps the writes instead of sending them.
    let dryRun: DryRunTransport?
    let masker: SecretMasker
    let coderSettings: CoderSettings
    /// What completion offers; read without waiting for the actor, from the line editor.
    let catalog = Mutex(CompletionCatalog())

    var scope: Scope
    var format = OutputFormat.table
    var zone: String
    /// The kinds of the steps whose results the session has, by id (`_` included), for checking references.
    var kinds: [String: StepKind] = [:]
    var recorded: [RecordedStep] = []
    /// The recorded step each id stands for now.
    var resolution: [String: Int] = [:]
    /// The number of the last `_N` id given.
    var autoNumber = 0
    /// The index of the job's next step.
    var nextStep = 0
    var finallyRan = false
    /// How each job step ended, by index, for `:list`.
    var jobStatuses: [Int: StepStatus] = [:]
    /// `:display`: the `display_value` a typed step gets when it does not give one (``DisplayValueMode/display``
    /// or ``DisplayValueMode/all``); nil: none.
    var display: DisplayValueMode?
    /// Whether a step failed, and whether an assertion failed, in the session: a piped session's exit status.
    public private(set) var stepFailed = false
    public private(set) var assertionFailed = false
    /// The session's writes, for `:history` and `:undo`.
    var writes: [SessionWrite] = []
    /// The writes interrupted by Ctrl-C that may have gone through, until a look at the instance settles them.
    var unsettled: [InterruptedWrite] = []
    /// Whether a step of the job has run (its `finally` is then due).
    var jobStarted: Bool { !jobStatuses.isEmpty }

    /// A session on the instance of `options`, with the job's vars, authentication and coder when one is given;
    /// `width` tells the terminal's width when a table is drawn.
    ///
    /// `unauthorizedHint` is said after a step the instance refused with 401 (what to set to be let in).
    public init(
        options: RunOptions, job: ReplJob? = nil, instanceName: String? = nil, unauthorizedHint: String? = nil,
        width: @escaping @Sendable () -> Int = { 80 }
    ) throws(ReplSessionError) {
        let base = job?.job ?? Job(
            name: "REPL session", description: nil, instance: nil, file: "", auth: nil, coder: CoderSettings(),
            vars: [], secrets: [], steps: [], finally: [])
        let preparation: JobRunner.Preparation
        do {
            preparation = try JobRunner(job: base, options: options).prepare()
        } catch {
            throw ReplSessionError(description: "cannot start the session: \(error.message)")
        }
        self.options = options
        loaded = job
        self.instanceName = instanceName
        self.unauthorizedHint = unauthorizedHint
        self.width = width
        service = preparation.service
        dryRun = preparation.dryRun
        masker = preparation.masker
        coderSettings = base.coder
        scope = preparation.scope
        zone = base.coder.timezone
        let vars = scope.vars
        catalog.withLock { $0.vars = vars }
    }

    /// The first lines of the session.
    public var banner: String {
        guard let job = loaded?.job else {
            return "nowflow repl on \(instanceName ?? "local"): type a step (query incident active=true limit=5) or :help"
        }
        guard let first = job.steps.first else {
            return "\(job.name) (\(job.file)): no steps; type steps, or :help"
        }
        let finally = job.finally.isEmpty ? "" : " and \(job.finally.count) in finally"
        let count = "\(job.steps.count) step\(job.steps.count == 1 ? "" : "s")\(finally)"
        return "\(job.name) (\(job.file)): \(count): :next runs step 1 \(first.replLabel), :run runs the rest, :help lists the commands"
    }

    /// The prompt: the job's position while it has steps left.
    public var prompt: String {
        guard let job = loaded?.job, nextStep < job.steps.count else { return "nowflow> " }
        return "nowflow [\(nextStep + 1)/\(job.steps.count)]> "
    }

    /// Answers one line: a step (YAML flow or short form), a `:` command, or nothing (blank, `# comment`).
    public func handle(_ line: String) async -> ReplReply {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        // An interrupted create is looked up first, so that the line sees what the instance has.
        let settled = await settled
        var reply: ReplReply
        if trimmed.isEmpty || trimmed.hasPrefix("#") {
            reply = ReplReply("")
        } else if trimmed.hasPrefix(":") {
            reply = await command(trimmed)
        } else {
            reply = await typedStep(line)
        }
        if let settled {
            reply.text = reply.text.isEmpty ? settled : settled + "\n" + reply.text
        }
        let steps = scope.steps
        let vars = scope.vars
        catalog.withLock {
            $0.steps = steps
            $0.vars = vars
        }
        return reply
    }

    /// Ends the session: runs the job's `finally` if the job was started and it has not run yet.
    public func finish() async -> String {
        guard let job = loaded?.job, jobStarted, !finallyRan, !job.finally.isEmpty else { return "" }
        return await runFinally()
    }

    // MARK: - Steps

    /// A step typed at the prompt: read, checked, run, shown.
    private func typedStep(_ line: String) async -> ReplReply {
        let node: YAMLNode
        do {
            node = try YAMLNode(typedStep: line)
        } catch {
            return .rejection(error.message, column: error.column)
        }
        let given = node.pairs?.first { $0.name == "id" }?.value.scalarText
        if given == "_" {
            let column = node.pairs?.first { $0.name == "id" }?.value.mark.column ?? 0
            return .rejection("the id '_' always names the last result; choose another id", column: column)
        }
        let id = given ?? "_\(autoNumber + 1)"
        let withID = (given == nil ? node.settingID(id) : node).settingDisplay(display)
        let step: Step
        switch JobBuilder.replStep(withID, visibleIDs: kinds, variables: Set(scope.vars.keys)) {
        case .success(let built): step = built
        case .failure(let error):
            let text = error.diagnostics.map { ReplReply.errorText($0.message, column: $0.column) }.joined(separator: "\n")
            return ReplReply(text, rejected: true)
        }
        if let unknown = await unknownName(in: withID) { return ReplReply(unknown, rejected: true) }
        // A step that fails keeps no result: its id is not used up, and the message does not name it.
        let failedLabel = given == nil ? "(\(step.kind.name))" : nil
        let run = await run(step, number: id, label: "\(id) (\(step.kind.name))", failedLabel: failedLabel, node: withID)
        if given == nil, run.status == .passed || run.status == .skipped || run.keptResult { autoNumber += 1 }
        return ReplReply(run.text)
    }

    /// How a step ran, and what to show.
    struct StepRun {
        var status: StepStatus
        var text: String
        /// The step failed under `continue_on_error`: a job goes on.
        var continued = false
        /// The step failed but left a result (an interrupted create, possibly written): its id is used up.
        var keptResult = false
    }

    /// Runs a step with the engine, keeps its result as `steps.<id>` and `steps._`, records it for `:save`, and
    /// renders what it did. `number` numbers it (`3/6`, `finally 1`) and `label` names it in messages (by default
    /// the engine's `step 3/6 'id' (kind)`); `node` nil: not recorded.
    ///
    /// `failedLabel`, when given, names the step when it fails (a typed step without an id keeps none then).
    func run(
        _ step: Step, number: String, label: String? = nil, failedLabel: String? = nil, node: YAMLNode?,
        jobStep: Int? = nil
    ) async -> StepRun {
        // The step's conditions are checked, and their choice labels translated, with what the session read of
        // the instance's dictionary, as a run's are with what its name check read.
        let schema = catalog.withLock { $0.schema }
        var checked = options.checkedDictionary.dictionary ?? InstanceDictionary()
        checked.merge(schema)
        options.checkedDictionary.dictionary = checked
        let execution = JobExecution(
            service: service, options: options, masker: masker, dates: dates, dryRun: dryRun)
        if let job = loaded?.job { execution.baseDirectory = job.directory }
        var draft: SessionWrite?
        if let id = step.id { draft = await writeDraft(step, id: id) }
        var newScope = scope
        _ = await execution.execute(step, number: number, scope: &newScope)
        let outcome = execution.outcomes.last
        let label = label ?? outcome?.label ?? number
        if Task.isCancelled {
            stepFailed = true
            if let id = step.id {
                if let possible = execution.touched.last(where: { $0.action == .possiblyCreated }) {
                    let write = SessionWrite(
                        stepID: id, kind: .create, table: possible.table, records: [.init(sysID: possible.sysID)],
                        written: [])
                    return StepRun(status: .failed, text: interrupted(write, id: id, kind: step.kind, node: node), keptResult: true)
                }
                if let draft, !draft.records.isEmpty {
                    return StepRun(status: .failed, text: interrupted(draft, id: id, kind: step.kind, node: node), keptResult: true)
                }
            }
            let write = ["create", "update", "delete"].contains(step.kind.name) && dryRun == nil
            let what = write
                ? "; its request may have reached the instance: look before running it again"
                : "; results and variables are as before it"
            return StepRun(
                status: .failed, text: "cancelled: \(failedLabel ?? label) was interrupted (Ctrl-C)\(what)")
        }
        guard let outcome else {
            stepFailed = true
            return StepRun(status: .failed, text: "error: \(failedLabel ?? label) did not run")
        }
        scope = newScope
        switch outcome.status {
        case .failed, .assertionFailed:
            if !outcome.continued {
                if outcome.status == .assertionFailed { assertionFailed = true } else { stepFailed = true }
            }
            var continued = outcome.continued ? " (continue_on_error: going on)" : ""
            if let unauthorizedHint, outcome.message.hasPrefix("bad response 401 ") { continued += "\n\(unauthorizedHint)" }
            return StepRun(
                status: outcome.status, text: "error: \(failedLabel ?? label): \(outcome.message)\(continued)",
                continued: outcome.continued)
        case .skipped, .notRun:
            if let node, let id = step.id { record(node, id: id, jobStep: jobStep) }
            return StepRun(status: .skipped, text: "\(label): skipped (\(outcome.message))")
        case .passed:
            var text = "\(label): \(outcome.message)"
            if let id = step.id, let value = scope.steps[id] {
                scope.steps["_"] = value
                kinds[id] = step.kind
                kinds["_"] = step.kind
                if let node { record(node, id: id, jobStep: jobStep) }
                await keepWrite(step, id: id, result: value, draft: draft, recordedStep: node.map { _ in recorded.count - 1 })
                if let table = noteTable(of: step, value) { await loadDictionary(for: table) }
                if let shown = shown(value, of: step) { text += "\n" + shown }
            }
            return StepRun(status: .passed, text: text)
        }
    }

    func record(_ node: YAMLNode, id: String, jobStep: Int?) {
        recorded.append(RecordedStep(node: node, id: id, resolution: resolution, jobStep: jobStep))
        resolution[id] = recorded.count - 1
        resolution["_"] = recorded.count - 1
    }

    /// The result rendered for the kinds whose result is data (records, a value); nil for the others. The records
    /// a create or update wrote are a table of their identifying fields and the fields written.
    private func shown(_ result: StepResult, of step: Step) -> String? {
        let fields: [String]
        let shownValue: JSONValue
        switch (step.kind, result) {
        case (.query(let query), .records(let records)):
            return masker(renderer.render(records, single: false, fields: query.fields) { result.json })
        case (.get(let get), .record(let record, _)):
            return masker(renderer.render(record.map { [$0] } ?? [], single: true, fields: get.fields) { result.json })
        case (.extract, .extracted(let value)): return masker(renderer.render(value))
        case (.create(let create), .written(let write)):
            let shown = write.shown(setting: create.fields)
            return masker(renderer.render(shown.records, single: false, fields: shown.fields) { shown.json })
        case (.update(let update), .written(let write)):
            let shown = write.shown(setting: update.fields)
            return masker(renderer.render(shown.records, single: false, fields: shown.fields) { shown.json })
        case (.http, .http(_, _, let body)): (shownValue, fields) = (body, [])
        case (.attach, .attachments(let value)), (.download, .attachments(let value)),
            (.attachments, .attachments(let value)), (.aggregate, .aggregate(let value)):
            (shownValue, fields) = ResultRenderer.tabular(value, of: step.kind)
        default: return nil
        }
        return masker(renderer.render(shownValue, fields: fields))
    }

    /// The session's dates: the job's coder, shown in the zone `:tz` chose.
    var dates: JobDates {
        JobDates(coderSettings, zoneName: zone)
    }

    var renderer: ResultRenderer {
        ResultRenderer(format: format, dates: dates, width: width())
    }

    /// Notes the step's table and the fields of its records, for completion; gives the table.
    private func noteTable(of step: Step, _ result: StepResult) -> String? {
        let template: Template
        switch step.kind {
        case .query(let query): template = query.table
        case .get(let get): template = get.table
        case .create(let create): template = create.table
        case .update(let update): template = update.table
        case .delete(let delete): template = delete.table
        default: return nil
        }
        guard let table = template.literal ?? (try? template.evaluate(in: scope).text), NameUse.isTableName(table) else {
            return nil
        }
        let records = result.records
        catalog.withLock { $0.saw(table: table, records: records) }
        return table
    }
}
