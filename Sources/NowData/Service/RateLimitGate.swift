import Synchronization

/// The pause an instance asked for, shared by every request of one service: after a 429 (or 503) with
/// `Retry-After` or `X-RateLimit-Reset`, no request of the service is sent until that time, so that requests in
/// flight together (a parallel `foreach`, several tasks on one ``NowTableService``) back off once, together,
/// instead of each meeting the limit again.
final class RateLimitGate: Sendable {
    private let reopening = Mutex<ContinuousClock.Instant?>(nil)

    /// Holds every request for `delay` from now (or until a later time already held).
    func hold(for delay: Duration) {
        let until = ContinuousClock.now + delay
        reopening.withLock { reopening in
            if reopening.map({ $0 < until }) ?? true { reopening = until }
        }
    }

    /// How long until requests may be sent again; zero when they may now.
    var remaining: Duration {
        let now = ContinuousClock.now
        return reopening.withLock { reopening in
            guard let until = reopening, until > now else {
                reopening = nil
                return .zero
            }
            return until - now
        }
    }

    /// Waits until requests may be sent; throws `CancellationError` when the task is cancelled meanwhile.
    func wait() async throws {
        while true {
            let left = remaining
            guard left > .zero else { return }
            try await Task.sleep(for: left)
        }
    }
}
