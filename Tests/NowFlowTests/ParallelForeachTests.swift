import Foundation
import LocalInstance
import NowData
import Synchronization
import Testing

@testable import NowFlow

/// `foreach` with `parallel: N`: items run at once, reported in input order; a failure starts no further item
/// and lets the running ones finish; NowData's retries on the foreach's line; the dry run one item at a time.
@Suite struct ParallelForeachTests {
    /// Counts the requests in flight at once.
    final class InFlight: Sendable {
        private let counts = Mutex((now: 0, most: 0))
        func enter() { counts.withLock { $0.now += 1; $0.most = max($0.most, $0.now) } }
        func leave() { counts.withLock { $0.now -= 1 } }
        var now: Int { counts.withLock { $0.now } }
        var most: Int { counts.withLock { $0.most } }
    }

    /// Requests wait here until it opens, or for a minute at most, so that a test cannot hang.
    final class Latch: Sendable {
        private let opened = Mutex(false)
        func open() { opened.withLock { $0 = true } }
        func wait() async {
            let deadline = ContinuousClock.now + .seconds(60)
            while !opened.withLock({ $0 }), ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(5)) }
        }
    }

    /// When the requests of a run may go on to the instance.
    enum Hold {
        /// At once.
        case none
        /// Once this many are in flight together.
        case untilInFlight(Int)
        /// Once the foreach has a first item done.
        case untilAnItemIsDone
    }

    /// Runs `text` on the harness's instance, counting the requests in flight, each held as `hold` says.
    private func run(_ text: String, on harness: RunHarness, inFlight: InFlight, hold: Hold = .none) async throws
        -> (RunResult, [String])
    {
        let job = try JobFile.parse(text, file: "job.yaml")
        var options = RunOptions.inProcess(on: harness.instance)
        let base = harness.instance.transport
        let latch = Latch()
        if case .none = hold { latch.open() }
        options.transport = ClosureTransport { request in
            inFlight.enter()
            defer { inFlight.leave() }
            if case .untilInFlight(let count) = hold, inFlight.now >= count { latch.open() }
            await latch.wait()
            return try await base.send(request)
        }
        let lines = Mutex<[String]>([])
        options.onEvent = { event in
            if case .iterating = event, case .untilAnItemIsDone = hold { latch.open() }
            if case .stepFinished(let outcome) = event {
                lines.withLock { $0.append(RunHarness.normalized(outcome.progressLine(color: false))) }
            }
        }
        let result = await JobRunner(job: job, options: options).run()
        return (result, lines.withLock { $0 })
    }

    static func job(parallel: Int, items: Int, body: String) -> String {
        """
        name: Parallel
        vars:
          items: [\((0..<items).map(String.init).joined(separator: ", "))]
        steps:
          - id: each
            foreach: vars.items
            parallel: \(parallel)
            steps:
        \(body)
        """
    }

    @Test func itemsRunAtOnceAndAreReportedInInputOrder() async throws {
        let harness = try RunHarness()
        let inFlight = InFlight()
        // The creates wait until four are in flight together (as they can only if four items run at once).
        let (result, lines) = try await run(
            Self.job(
                parallel: 4, items: 8,
                body: """
                      - id: note
                        create: { table: incident, fields: { short_description: "parallel ${item}" } }
                """), on: harness, inFlight: inFlight, hold: .untilInFlight(4))
        #expect(result.status == .passed)
        #expect(inFlight.most == 4)
        #expect(
            lines == (0..<8).map { "ok   step 1[\($0)].1 'note' (create): created incident <sys_id> (N ms)" } + [
                "ok   step 1 'each' (foreach): 8 items, 4 at a time (N ms)"
            ])
        let results = try #require(result.results["each"]?["results"]?.array)
        #expect(results.map { $0["note"]?["record"]?["short_description"] } == (0..<8).map { .string("parallel \($0)") })
        #expect(result.records.map(\.step) == (0..<8).map { "step 1[\($0)].1 'note' (create)" })
        #expect(try harness.count("incident", "short_descriptionSTARTSWITHparallel ") == 8)
    }

    @Test func aFailureStartsNoFurtherItemAndLetsTheRunningOnesFinish() async throws {
        let harness = try RunHarness()
        // The creates of items 0 and 2 wait until an item is done, which can then only be item 1's failure: no
        // item after it starts, however the machine schedules the items.
        let (result, lines) = try await run(
            Self.job(
                parallel: 3, items: 9,
                body: """
                      - assert: { that: "item != 1", message: "item ${item} is refused" }
                      - id: note
                        create: { table: incident, fields: { short_description: "halted ${item}" } }
                """) + """

            finally:
              - delete: { table: incident, query: "short_descriptionSTARTSWITHhalted ", max: 9 }
            """, on: harness, inFlight: InFlight(), hold: .untilAnItemIsDone)
        #expect(result.status == .assertionFailed)
        #expect(result.error == "step 1 'each' (foreach): item 1 failed: step 1[1].1 (assert): item 1 is refused (1 != 1 is false)")
        #expect(
            lines == [
                "ok   step 1[0].1 (assert): holds: item != 1 (N ms)",
                "ok   step 1[0].2 'note' (create): created incident <sys_id> (N ms)",
                "ASSERT step 1[1].1 (assert): item 1 is refused (1 != 1 is false) (N ms)",
                "ok   step 1[2].1 (assert): holds: item != 1 (N ms)",
                "ok   step 1[2].2 'note' (create): created incident <sys_id> (N ms)",
                "ASSERT step 1 'each' (foreach): item 1 failed: step 1[1].1 (assert): item 1 is refused (1 != 1 is false) (N ms)",
                "ok   finally 1 (delete): deleted 2 incident records (N ms)",
            ])
        #expect(try harness.count("incident", "short_descriptionSTARTSWITHhalted ") == 0)
    }

    @Test func continueOnErrorHoldsForEachItem() async throws {
        let harness = try RunHarness()
        let (result, lines) = try await run(
            Self.job(
                parallel: 2, items: 4,
                body: """
                      - id: missing
                        get: { table: incident, sys_id: "no-such-${item}" }
                        continue_on_error: true
                """), on: harness, inFlight: InFlight())
        #expect(result.status == .passed)
        #expect(
            lines == (0..<4).map {
                "FAIL (continued) step 1[\($0)].1 'missing' (get): bad response 404 from GET /api/now/table/incident/no-such-\($0): No Record found (Record doesn't exist or ACL restricts the record retrieval) (N ms)"
            } + ["ok   step 1 'each' (foreach): 4 items, 2 at a time (N ms)"])
    }

    @Test func aStormOf429IsWaitedOutTogether() async throws {
        let harness = try RunHarness()
        harness.instance.setFaults(
            FaultInjection(scripted: Array(repeating: .status(429, retryAfterSeconds: 1), count: 4)))
        let job = try JobFile.parse(
            Self.job(
                parallel: 4, items: 6,
                body: """
                      - id: read
                        query: { table: incident, where: { number: "INC001000${item}" }, fields: [number] }
                """), file: "job.yaml")
        var options = RunOptions.inProcess(on: harness.instance)
        // The default backoff with one attempt more than the default's four: the instance answers in process, at
        // once, so on a busy machine one item's request can meet every 429 while the others wait out its pauses.
        // Ten minutes of budget, not the default's one: a loaded machine can hold the items' tasks past a minute.
        options.retryPolicy = RetryPolicy(maxAttempts: 5, totalBudget: .seconds(600))
        let lines = Mutex<[String]>([])
        options.onEvent = { event in
            if case .stepFinished(let outcome) = event {
                lines.withLock { $0.append(RunHarness.normalized(outcome.progressLine(color: false))) }
            }
        }
        let result = await JobRunner(job: job, options: options).run()
        #expect(result.status == .passed)
        #expect(
            lines.withLock { $0 } == (0..<6).map {
                "ok   step 1[\($0)].1 'read' (query): \($0 == 0 ? 0 : 1) record\($0 == 0 ? "s" : "") from incident (N ms)"
            } + ["ok   step 1 'each' (foreach): 6 items, 4 at a time, retried 4x after 429 (N ms)"])
    }

    @Test func aDryRunTakesTheItemsOneAtATime() async throws {
        let harness = try RunHarness()
        let result = try await harness.run(
            Self.job(
                parallel: 8, items: 3,
                body: """
                      - create: { table: incident, fields: { short_description: "planned ${item}" } }
                """), dryRun: true)
        #expect(result.status == .passed)
        #expect(result.plannedWrites.map(\.step) == (0..<3).map { "step 1[\($0)].1 (create)" })
        #expect(
            result.plannedWrites.map { $0.body?["short_description"] } == (0..<3).map { .string("planned \($0)") })
    }

    @Test func parallelIsAWholeNumberUpTo32() {
        let text = """
            name: Bad
            vars: { one: [1] }
            steps:
              - foreach: vars.one
                parallel: 0
                steps: [{ assert: "true" }]
              - foreach: vars.one
                parallel: 33
                steps: [{ assert: "true" }]
              - foreach: vars.one
                parallel: many
                steps: [{ assert: "true" }]
              - assert: "true"
                parallel: 2
            """
        do {
            _ = try JobFile.parse(text, file: "job.yaml")
            Issue.record("the job was valid")
        } catch {
            #expect(
                error.description == """
                    job.yaml:5:15: error: parallel must be at least 1, not 0
                    job.yaml:8:15: error: parallel must be at most 32, not 33
                    job.yaml:11:15: error: parallel must be a whole number, not a string
                    job.yaml:14:5: error: unknown key 'parallel' in the assert step; expected id, when, retry, continue_on_error, once, show, tags, query, get, create, update, delete, extract, set, assert, foreach, include, ensure, http, attach, download, attachments, aggregate, change, import or order
                    """)
        }
    }

    /// `parallel:` takes one `${...}` that gives a whole number, as `limit:` and `max:` do; what it gives is checked
    /// at run time as theirs is.
    @Test func parallelTakesATemplate() async throws {
        let harness = try RunHarness()
        let job = """
            name: Par
            vars: { par: 3, numbers: [1, 2, 3, 4] }
            steps:
              - id: each
                foreach: vars.numbers
                parallel: "${vars.par}"
                steps:
                  - assert: "item > 0"
            """
        let passed = try await harness.run(job)
        #expect(passed.status == .passed, "\(passed.error ?? "")")
        #expect(passed.steps.first(where: { $0.kind == "foreach" })?.message == "4 items, 3 at a time")
        let many = try await harness.run(job, variables: ["par": "40"])
        #expect(many.error == "step 1 'each' (foreach): parallel: ${vars.par} gives 40; it must be at most 32")
        let none = try await harness.run(job.replacingOccurrences(of: "par: 3,", with: "par: \"3\","))
        #expect(none.error == "step 1 'each' (foreach): parallel: ${vars.par} gives a string, not a whole number")
        #expect(throws: JobFileError.self) {
            try JobFile.parse(job.replacingOccurrences(of: "\"${vars.par}\"", with: "\"${vars.par} at once\""), file: "job.yaml")
        }
    }
}
