import Foundation

/// When and how long a ``NowTableService`` retries a request that failed for a passing reason.
///
/// Reads, updates and deletes are retried on 429, 502, 503 and 504 and on a connection that failed (dropped,
/// refused, timed out, or a host name not found), with an exponential backoff and jitter (`baseDelay`,
/// doubled each attempt, at most `maxDelay`), or after the delay the instance asks for (`Retry-After` in
/// seconds, `X-RateLimit-Reset` as a unix time; that delay holds every request of the service, so that requests
/// made at once, such as a parallel `foreach`'s, back off together). Retries stop after `maxAttempts` attempts in all or when the
/// next one would start after `totalBudget`; the last failure is then thrown. A create is retried too,
/// without ever creating the record twice: see ``NowTableService``.
///
/// ```swift
/// var configuration = NowServiceConfiguration(instanceURL: url)
/// configuration.retryPolicy = RetryPolicy(maxAttempts: 6, baseDelay: .milliseconds(100))
/// configuration.retryPolicy = .none   // fail at once
/// ```
public struct RetryPolicy: Sendable, Hashable {
    /// The number of attempts in all, the first included; 1 disables retries.
    public var maxAttempts: Int
    /// The delay before the first retry; each further retry doubles it.
    public var baseDelay: Duration
    /// The longest computed delay between two attempts.
    public var maxDelay: Duration
    /// The time after the first attempt beyond which no retry starts.
    public var totalBudget: Duration

    /// A retry policy.
    public init(
        maxAttempts: Int = 4, baseDelay: Duration = .milliseconds(250), maxDelay: Duration = .seconds(10),
        totalBudget: Duration = .seconds(60)
    ) {
        self.maxAttempts = max(1, maxAttempts)
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.totalBudget = totalBudget
    }

    /// Four attempts, from 250 ms doubling up to 10 s between them, within a minute: the default.
    public static let `default` = RetryPolicy()

    /// No retry: every failure is thrown at once.
    public static let none = RetryPolicy(maxAttempts: 1)

    /// The backoff before retry number `retry` (1 for the first retry): half the exponential delay plus a
    /// random part up to the other half.
    func backoff(beforeRetry retry: Int) -> Duration {
        let exponent = min(max(retry - 1, 0), 30)
        let full = min(baseDelay * (1 << exponent), maxDelay)
        let half = full / 2
        let jitter = half * Double.random(in: 0...1)
        return half + jitter
    }
}
