import Foundation

/// Counts the requests an ``HTTPListener`` is handling, so that stopping can refuse new ones and wait for the rest.
///
/// Unchecked `Sendable`: every stored property is read and written under `condition`.
final class RequestTracker: @unchecked Sendable {
    private let condition = NSCondition()
    private var inFlight = 0
    private var stopping = false

    /// Admits a request; false once stopping has begun.
    func begin() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !stopping else { return false }
        inFlight += 1
        return true
    }

    /// Marks an admitted request as finished (answered or its connection closed).
    func end() {
        condition.lock()
        inFlight -= 1
        if inFlight == 0 { condition.broadcast() }
        condition.unlock()
    }

    /// Refuses further requests, cuts short every ``pause(_:)`` and waits until every admitted one has finished.
    func drain() {
        condition.lock()
        stopping = true
        condition.broadcast()
        while inFlight > 0 { condition.wait() }
        condition.unlock()
    }

    /// Holds up the calling thread for `delay` (an injected latency), or until stopping begins: a server told to
    /// stop does not wait out the latencies of the requests in flight.
    func pause(_ delay: Duration) {
        guard delay > .zero else { return }
        let (seconds, attoseconds) = delay.components
        let deadline = Date(timeIntervalSinceNow: Double(seconds) + Double(attoseconds) / 1e18)
        condition.lock()
        while !stopping, condition.wait(until: deadline) {}
        condition.unlock()
    }
}
