import LocalInstance
import NowData
import Testing

@testable import NowFlow

/// Retries are visible: a step NowData retried says so and why, and a `retry.until` that stayed false shows the
/// last value of each reference in it.
@Suite struct RetryVisibilityTests {
    @Test func aRetriedStepSaysHowOftenAndWhy() async throws {
        let harness = try RunHarness()
        harness.instance.setFaults(
            FaultInjection(scripted: [.status(503, retryAfterSeconds: nil), .status(503, retryAfterSeconds: nil)]))
        let result = try await harness.run(
            """
            name: Retried
            steps:
              - query: { table: incident, where: { number: INC0000001 }, fields: [number] }
              - query: { table: incident, where: { number: INC0000001 }, fields: [number] }
            """, retryPolicy: RetryPolicy(maxAttempts: 4, baseDelay: .milliseconds(1), totalBudget: .seconds(3600)))
        #expect(result.status == .passed)
        #expect(
            harness.lines == [
                "ok   step 1 (query): 0 records from incident, retried 2x after 503 (N ms)",
                "ok   step 2 (query): 0 records from incident (N ms)",
            ])
    }

    /// A request cancelled by a signal is not retried, and not noted as one: its answer may come after the next
    /// step (`finally`'s clean-up) started, which was then said to be `retried 1x after a network error`.
    @Test func aCancelledRequestIsNotNotedAsRetried() async throws {
        let tally = RetryTally(wrapping: ClosureTransport { _ in throw NetworkServiceError.operationCancelled })
        await #expect(throws: NetworkServiceError.self) {
            _ = try await tally.send(NowHTTPRequest(method: "GET", path: "/api/now/table/incident"))
        }
        #expect(tally.takeNote() == nil)
        let failing = RetryTally(wrapping: ClosureTransport { _ in throw NetworkServiceError.genericError("reset") })
        await #expect(throws: NetworkServiceError.self) {
            _ = try await failing.send(NowHTTPRequest(method: "GET", path: "/api/now/table/incident"))
        }
        #expect(failing.takeNote() == "retried 1x after a network error")
    }

    @Test func anExhaustedUntilShowsTheLastValues() async throws {
        let harness = try RunHarness()
        let result = try await harness.run(
            """
            name: Poll
            vars: { want: 1 }
            steps:
              - id: wait
                retry: { attempts: 2, delay: 1ms, until: "steps.wait.count == vars.want && steps.wait.count > 0" }
                query: { table: incident, where: { short_description: none-such }, limit: 1 }
            """)
        #expect(
            result.error
                == "step 1 'wait' (query): retry.until is still false after 2 attempts (steps.wait.count = 0, vars.want = 1)"
        )
    }
}
