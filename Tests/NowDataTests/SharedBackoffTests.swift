import Foundation
import Synchronization
import Testing

@testable import NowData

/// A 429 with `Retry-After` holds every request of the service, not only the one that got it: requests made
/// together back off once, together.
@Suite struct SharedBackoffTests {
    let one = #"{"result":{"sys_id":"0123456789abcdef0123456789abcdef","short_description":"x"}}"#

    @Test func aRequestedDelayHoldsTheOtherRequestsOfTheService() async throws {
        let clock = ContinuousClock()
        let answeredBusy = Mutex<ContinuousClock.Instant?>(nil)
        let arrivals = Mutex<[(path: String, at: ContinuousClock.Instant)]>([])
        let transport = RecordingTransport { [one] request, index in
            arrivals.withLock { $0.append((request.path, clock.now)) }
            if index == 0 {
                answeredBusy.withLock { $0 = clock.now }
                return json(429, "{}", headers: ["Retry-After": "1"])
            }
            return json(200, one)
        }
        let service = makeService(transport)
        async let first = service.record(with: "0123456789abcdef0123456789abcdef", from: "incident")
        // The second request starts once the service holds its requests for the first one's 429 (the transport
        // answering it is not enough: the pipeline holds them once the answer is back), or, should this task be
        // left waiting past the second the pause lasts, once the first has been sent again.
        try await eventually("the 429 holds the service's requests") {
            service.pipeline.gate.remaining > .zero || arrivals.withLock { $0.count } > 1
        }
        let second = try await service.record(with: "0123456789abcdef0123456789abcdef", from: "problem")
        _ = try await first
        #expect(String(decoding: second, as: UTF8.self) == one)
        let busy = try #require(answeredBusy.withLock { $0 })
        let seen = arrivals.withLock { $0 }
        #expect(
            seen.map(\.path) == [
                "/api/now/table/incident/0123456789abcdef0123456789abcdef",
                "/api/now/table/problem/0123456789abcdef0123456789abcdef",
                "/api/now/table/incident/0123456789abcdef0123456789abcdef",
            ] || seen.map(\.path) == [
                "/api/now/table/incident/0123456789abcdef0123456789abcdef",
                "/api/now/table/incident/0123456789abcdef0123456789abcdef",
                "/api/now/table/problem/0123456789abcdef0123456789abcdef",
            ])
        // Neither the retry nor the other request was sent before the second the instance asked for.
        for arrival in seen.dropFirst() { #expect(arrival.at - busy >= .milliseconds(990)) }
    }
}
