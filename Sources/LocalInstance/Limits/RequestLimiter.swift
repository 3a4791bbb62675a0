import Foundation
import Synchronization

/// The state of the ``PlatformLimits`` of one instance: the requests counted by each rate-limit rule, the
/// integration semaphore and its queue, the request of each session being handled and those waiting behind it,
/// and the last requests refused.
///
/// Waiting blocks the calling thread (the HTTP listener has one per connection), so it is only used on the
/// listener's path, never by the in-process transport.
final class RequestLimiter: Sendable {
    let limits: PlatformLimits
    /// The requests counted in the current window, per rule and user.
    private let counts = Mutex(RateCounts())
    /// The requests being handled (`active`) and waiting (`waiting`) for the semaphore.
    private let semaphore = Waiters()
    /// The sessions with a request being handled, and how many wait behind each.
    private let sessions = Waiters()
    /// The last refusals, newest last.
    private let refusals = Mutex<[ThrottleEvent]>([])

    /// The most refusals kept for the web view.
    static let keptRefusals = 200

    init(limits: PlatformLimits) {
        self.limits = limits
    }

    /// The counts of one window.
    struct RateCounts {
        var window: Int64 = .min
        var counts: [String: Int] = [:]
    }

    /// The outcome of counting a request against its rule.
    struct RateVerdict: Sendable {
        /// The rule's `X-RateLimit-*` headers.
        var headers: [(String, String)]
        /// When refused: seconds to `Retry-After`.
        var retryAfter: Int?
    }

    /// Counts a request of `user` against `rule` in the current window: allowed while the window holds fewer than
    /// the rule's limit (and then counted), refused otherwise.
    func count(_ rule: RateLimitRule, user: String) -> RateVerdict {
        let now = limits.clock().timeIntervalSince1970
        let seconds = Self.seconds(limits.rateWindow)
        let window = Int64((now / seconds).rounded(.down))
        let reset = Double(window + 1) * seconds
        let allowed = counts.withLock { state in
            if state.window != window { state = RateCounts(window: window) }
            let key = rule.sysID + "\u{0}" + user
            let used = state.counts[key, default: 0]
            guard used < rule.limit else { return false }
            state.counts[key] = used + 1
            return true
        }
        let headers = [
            ("X-RateLimit-Limit", String(rule.limit)), ("X-RateLimit-Reset", String(Int64(reset.rounded(.up)))),
            ("X-RateLimit-Rule", rule.sysID),
        ]
        return RateVerdict(headers: headers, retryAfter: allowed ? nil : max(1, Int((reset - now).rounded(.up))))
    }

    /// Waits for the semaphore; false (at once) when the queue is full.
    func enterSemaphore() -> Bool {
        guard let limit = limits.concurrentRequests else { return true }
        return semaphore.enter("", capacity: limit, queue: limits.queuedRequests)
    }

    /// Gives the semaphore back.
    func leaveSemaphore() {
        if limits.concurrentRequests != nil { semaphore.leave("") }
    }

    /// Waits until no other request of `session` is being handled; false (at once) when its queue is full.
    func enterSession(_ session: String) -> Bool {
        guard let queue = limits.sessionQueue else { return true }
        return sessions.enter(session, capacity: 1, queue: queue)
    }

    /// Ends the request of `session` being handled.
    func leaveSession(_ session: String) {
        if limits.sessionQueue != nil { sessions.leave(session) }
    }

    /// Notes a refusal for the web view.
    func note(_ event: ThrottleEvent) {
        refusals.withLock { refusals in
            refusals.append(event)
            if refusals.count > Self.keptRefusals { refusals.removeFirst(refusals.count - Self.keptRefusals) }
        }
    }

    /// The last refusals, newest first.
    var recentRefusals: [ThrottleEvent] {
        refusals.withLock { $0.reversed() }
    }

    /// A duration in seconds.
    static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

/// Requests holding and waiting for places, per key (the semaphore's one key, or each session): at most `capacity`
/// hold places at once and `queue` wait; a thread waits on the condition.
///
/// Unchecked `Sendable`: its dictionaries are only touched with the condition's lock held.
private final class Waiters: @unchecked Sendable {
    private let condition = NSCondition()
    private var holding: [String: Int] = [:]
    private var waiting: [String: Int] = [:]

    /// Takes a place for `key`, waiting while `capacity` are taken; false when `queue` already wait.
    func enter(_ key: String, capacity: Int, queue: Int) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        if holding[key, default: 0] < capacity {
            holding[key, default: 0] += 1
            return true
        }
        guard waiting[key, default: 0] < queue else { return false }
        waiting[key, default: 0] += 1
        while holding[key, default: 0] >= capacity { condition.wait() }
        waiting[key, default: 0] -= 1
        if waiting[key] == 0 { waiting[key] = nil }
        holding[key, default: 0] += 1
        return true
    }

    /// Gives a place of `key` back.
    func leave(_ key: String) {
        condition.lock()
        defer { condition.unlock() }
        holding[key, default: 1] -= 1
        if holding[key] == 0 { holding[key] = nil }
        condition.broadcast()
    }
}
