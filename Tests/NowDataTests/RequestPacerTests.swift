import Foundation
import Synchronization
import Testing

@testable import NowData

/// Issue 26's pacing: rates as written in job files and on the command line, and a pacer that holds the requests
/// a rate-limit rule would refuse until its reset, by a clock the test moves.
@Suite struct RequestPacerTests {
    @Test func ratesReadPerSecondMinuteOrHourAndDivideAmongShards() throws {
        #expect(try RequestRate(parsing: "500/s") == RequestRate(count: 500, per: .seconds(1)))
        #expect(try RequestRate(parsing: "2.5/min").description == "2.5/min")
        #expect(try RequestRate(parsing: "10000/h").divided(by: 4).description == "2500/h")
        #expect(try RequestRate(parsing: "10/s").spacing == .milliseconds(100))
        #expect(throws: RequestRate.Problem("expects requests per second or hour, such as 500/s or 10000/h, got 'fast'")) {
            try RequestRate(parsing: "fast")
        }
        #expect(throws: RequestRate.Problem("expects requests per second (/s), minute (/min) or hour (/h), got '5/day'")) {
            try RequestRate(parsing: "5/day")
        }
        #expect(throws: RequestRate.Problem.self) { try RequestRate(parsing: "0/s") }
    }

    /// A clock the test moves.
    final class Clock: Sendable {
        private let time = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
        var now: Date { time.withLock { $0 } }
        func advance(_ seconds: Double) { time.withLock { $0 += seconds } }
    }

    @Test func aRuleFullyUsedHoldsTheNextRequestUntilItsReset() async throws {
        let clock = Clock()
        let pacer = RequestPacer(now: { clock.now })
        let reset = clock.now.timeIntervalSince1970 + 60
        let limited = NowHTTPResponse(
            statusCode: 200,
            headers: ["X-RateLimit-Limit": "3", "X-RateLimit-Reset": String(Int(reset)), "X-RateLimit-Rule": "r1"])
        try await pacer.admit()
        pacer.answered(limited)
        #expect(pacer.pace == "3 per rate-limit window")
        for _ in 0..<2 {
            try await pacer.admit()
            pacer.answered(limited)
        }
        let admitted = Mutex(false)
        let fourth = Task {
            try await pacer.admit()
            admitted.withLock { $0 = true }
        }
        try await Task.sleep(for: .milliseconds(500))
        #expect(!admitted.withLock { $0 })
        // 60 s and the pacer's margin, rounded up.
        #expect(pacer.pace == "waiting 61 s for the rate limit's reset")
        clock.advance(60.5)
        try await fourth.value
        #expect(admitted.withLock { $0 })
    }
}
