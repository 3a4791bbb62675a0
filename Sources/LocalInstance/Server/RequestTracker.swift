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

    /// Refuses further requests and waits until every admitted one has finished.
    func drain() {
        condition.lock()
        stopping = true
        while inFlight > 0 { condition.wait() }
        condition.unlock()
    }
}
