import Foundation
import Synchronization

/// Paces the requests of a run, shared by every service of it: at most ``rate`` (when given), and within the
/// instance's rate-limit rules before they refuse anything. Every response's `X-RateLimit-Limit`,
/// `X-RateLimit-Reset` and `X-RateLimit-Rule` headers tell the pacer how many requests a rule allows until when;
/// once the run has sent that many in the rule's window, the next request waits for the reset instead of meeting a
/// 429. (A 429's `Retry-After` still holds every request of the service, see the retry policy.)
///
/// ```swift
/// var configuration = NowServiceConfiguration(instanceURL: url, authentication: .basic(user: "u", password: "p"))
/// configuration.pacer = RequestPacer(rate: try RequestRate(parsing: "10/s"))
/// ```
public final class RequestPacer: Sendable {
    /// The most requests per interval, whatever the instance says; nil: only the instance's rules pace.
    public let rate: RequestRate?
    private let state = Mutex(State())
    /// The wall clock resets are read against (Unix time), for tests.
    private let now: @Sendable () -> Date

    /// How long after a rule's reset the next window's first request goes, so that the instance's clock has
    /// turned too.
    static let resetMargin = 0.1

    struct State {
        /// When the next request may go at ``rate``.
        var nextSlot: ContinuousClock.Instant?
        /// The requests admitted and not yet answered.
        var inFlight = 0
        /// What each rule (by sys_id) allows.
        var rules: [String: RuleWindow] = [:]
        /// The last pause the pacer made, for progress lines.
        var waitingUntil: Date?
    }

    /// One rule's window as the run knows it.
    struct RuleWindow {
        var limit: Int
        /// The window's end (Unix time); nil once it has passed, until an answer tells the next one.
        var reset: Double?
        /// The requests the run sent in the window.
        var sent: Int
    }

    /// A pacer of at most `rate` (nil: only the instance's rules); `now` is the clock resets are compared with.
    public init(rate: RequestRate? = nil, now: @escaping @Sendable () -> Date = { Date() }) {
        self.rate = rate
        self.now = now
    }

    /// Waits until a request may be sent, and counts it.
    ///
    /// - Throws: `CancellationError` when the task is cancelled meanwhile.
    func admit() async throws {
        while true {
            let wait = state.withLock { state -> Duration in
                let time = now().timeIntervalSince1970
                var until = 0.0
                for (id, window) in state.rules {
                    if let reset = window.reset, time >= reset + Self.resetMargin {
                        state.rules[id] = RuleWindow(limit: window.limit, reset: nil, sent: 0)
                    } else if window.sent >= window.limit {
                        // Full: wait for its reset (or, while the next window's reset is unknown, for an answer).
                        until = max(until, window.reset.map { $0 + Self.resetMargin } ?? time + 0.05)
                    }
                }
                if until > time {
                    state.waitingUntil = Date(timeIntervalSince1970: until)
                    return .seconds(until - time)
                }
                state.waitingUntil = nil
                let instant = ContinuousClock.now
                if let rate {
                    let slot = max(instant, state.nextSlot ?? instant)
                    if slot > instant { return slot - instant }
                    state.nextSlot = slot + rate.spacing
                }
                for id in state.rules.keys { state.rules[id]?.sent += 1 }
                state.inFlight += 1
                return .zero
            }
            if wait == .zero { return }
            // In short steps, so that a clock that jumps (a test's) is followed.
            try await Task.sleep(for: min(wait, .milliseconds(200)))
        }
    }

    /// Notes the answer to an admitted request (nil: none came) and learns the rule it names.
    func answered(_ response: NowHTTPResponse?) {
        state.withLock { state in
            state.inFlight = max(0, state.inFlight - 1)
            guard let response, let id = response.headers["X-RateLimit-Rule"],
                let limit = response.headers["X-RateLimit-Limit"].flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }),
                let reset = response.headers["X-RateLimit-Reset"].flatMap({
                    Double($0.trimmingCharacters(in: .whitespaces))
                })
            else { return }
            guard var window = state.rules[id] else {
                // A rule first heard of: the requests still in flight count in its window too.
                state.rules[id] = RuleWindow(limit: limit, reset: reset, sent: state.inFlight + 1)
                return
            }
            window.limit = limit
            if window.reset == nil {
                window.reset = reset
            } else if let known = window.reset, reset > known {
                // The instance's window turned before the run's clock said so.
                window = RuleWindow(limit: limit, reset: reset, sent: state.inFlight + 1)
            }
            state.rules[id] = window
        }
    }

    /// The pace in words, for progress lines: `10/s`, `waiting 12 s for the rate limit's reset`, or nil when
    /// nothing paces the run.
    public var pace: String? {
        let (waitingUntil, rules) = state.withLock { ($0.waitingUntil, $0.rules) }
        if let waitingUntil, waitingUntil > now() {
            let seconds = Int(waitingUntil.timeIntervalSince(now()).rounded(.up))
            return "waiting \(seconds) s for the rate limit's reset"
        }
        let limits = rules.values.map { "\($0.limit) per rate-limit window" }.sorted()
        let parts = (rate.map { [$0.description] } ?? []) + limits.prefix(1)
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }
}
