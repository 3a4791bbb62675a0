import NowData
import Synchronization

/// `foreach` with `parallel: N`: up to N items at once, reported as if they had run one after the other.
///
/// Each item runs on an execution of its own over the same service (so the same transport, interruption and
/// shared backoff), which keeps its outcomes, records touched and events; they join the run's in input order, as
/// each item and every item before it are done, so the progress lines, results and summary read as a sequential
/// run's. A failure (not continued) starts no further item, and lets the items running finish; a signal cancels
/// their requests as in a sequential run. NowData's retries are noted on the foreach's own line.
extension JobExecution {
    /// What one item's run gives back to the foreach.
    private struct ItemRun: Sendable {
        var index: Int
        var scope: Scope
        var failure: StepFailure?
        var outcomes: [StepOutcome]
        var touched: [TouchedRecord]
        var numbers: [String: String]
        var ensured: [String: Int]
        /// What the item's own foreach steps counted instead of listing.
        var unlisted: UnlistedOutcomes
        /// The item's masker: the run's, and the secrets of the jobs its steps included.
        var masker: SecretMasker
        /// The events of the item, held back until the items before it are reported.
        var events: [RunEvent]
    }

    /// The events an item's steps report, kept in order: a query's paging goes out at once (it is progress).
    private final class HeldEvents: Sendable {
        private let events = Mutex<[RunEvent]>([])

        func keep(_ event: RunEvent) {
            events.withLock { $0.append(event) }
        }

        var all: [RunEvent] { events.withLock { $0 } }
    }

    /// Runs the items of `step`, up to `parallel` at once.
    func runParallel(
        _ step: ForeachStep, parallel: Int, items: inout ForeachItems, number: String, label: String,
        scope: inout Scope, counted: inout UnlistedOutcomes
    ) async throws(StepFailure) -> [[StepResult.Named]?] {
        let ids = step.steps.compactMap(\.id)
        let start = scope
        // The items whose results are kept: all, or the first listed ones.
        let kept = step.keepsResults ? Int.max : ForeachStep.listedItems
        // Items a stop left unrun stay nil (a list's are known from the start).
        var results = [[StepResult.Named]?](repeating: nil, count: min(items.total ?? 0, kept))
        var waiting: [Int: ItemRun] = [:]
        var reported = 0
        var done = 0
        var firstFailure: (index: Int, failure: StepFailure)?
        /// A failure to read the next item (a streamed query's page).
        var readFailure: StepFailure?

        /// Adds the runs of the items that are next in input order to the run's reports.
        func report(_ run: ItemRun) {
            for event in run.events { options.onEvent(event) }
            self.report(
                item: run.index, of: step, outcomes: run.outcomes, touched: run.touched, numbers: run.numbers,
                counted: &counted)
            unlisted.add(run.unlisted)
            ensured.merge(run.ensured, uniquingKeysWith: +)
            self.masker = self.masker.adding(run.masker)
            for (name, value) in run.scope.variables where start.variables[name] != value { scope.variables[name] = value }
            guard run.index < kept else { return }
            while results.count <= run.index { results.append(nil) }
            results[run.index] = run.scope.results(of: ids)
        }

        let service = service
        let options = options
        let masker = masker
        let dates = dates
        let displayDates = displayDates
        let enclosingTags = enclosingTags
        let (baseDirectory, file) = (baseDirectory, file)
        var source = items
        defer { items = source }
        await withTaskGroup(of: ItemRun.self) { group in
            var next = 0
            /// Starts the next item; false when there is none (or it could not be read).
            func startNext() async -> Bool {
                let item: ExpressionValue
                do throws(StepFailure) {
                    guard let taken = try await source.next() else { return false }
                    item = taken
                } catch {
                    readFailure = error
                    return false
                }
                let index = next
                next += 1
                group.addTask {
                    let held = HeldEvents()
                    var itemOptions = options
                    let forward = options.onEvent
                    itemOptions.onEvent = { event in
                        if case .paging = event { forward(event) } else { held.keep(event) }
                    }
                    let execution = JobExecution(
                        service: service, options: itemOptions, masker: masker, dates: dates, dryRun: nil)
                    (execution.baseDirectory, execution.file) = (baseDirectory, file)
                    execution.displayDates = displayDates
                    execution.enclosingTags = enclosingTags
                    execution.foreachShard = nil
                    var inner = start
                    inner.locals[step.name] = item
                    let failure = await execution.runList(step.steps, prefix: "\(number)[\(index)].", scope: &inner)
                    if failure != nil, execution.interruptionReason == nil {
                        execution.listNotRun(step.steps, prefix: "\(number)[\(index)].")
                    }
                    return ItemRun(
                        index: index, scope: inner, failure: failure, outcomes: execution.outcomes,
                        touched: execution.touched, numbers: execution.numbers, ensured: execution.ensured,
                        unlisted: execution.unlisted,
                        masker: execution.masker, events: held.all)
                }
                return true
            }
            var more = true
            while more, next < parallel { more = await startNext() }
            while let run = await group.next() {
                done += 1
                options.onEvent(.iterating(label: label, done: done, total: source.total))
                if let failure = run.failure, firstFailure.map({ run.index < $0.index }) ?? true {
                    firstFailure = (run.index, failure)
                }
                waiting[run.index] = run
                while let ready = waiting.removeValue(forKey: reported) {
                    report(ready)
                    reported += 1
                }
                if more, firstFailure == nil, readFailure == nil, interruptionReason == nil { more = await startNext() }
            }
        }
        // Items after a failure that did not start leave gaps: the ones that ran are reported in order.
        for index in waiting.keys.sorted() {
            if let run = waiting[index] { report(run) }
        }
        if let firstFailure { throw StepFailure(item: firstFailure.index, failed: firstFailure.failure) }
        if let readFailure { throw readFailure }
        return results
    }
}
