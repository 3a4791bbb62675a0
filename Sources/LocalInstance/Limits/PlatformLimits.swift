import Foundation

/// The limits a ServiceNow instance imposes on its REST APIs, emulated by the local instance when given (all off by
/// default; `nowflow serve --profile pdi` turns them all on with the platform's values):
///
/// - rate-limit rules: the active `sys_rate_limit_rules` records, counted per rule and user in windows of
///   ``rateWindow`` (an hour on the platform), answered with `X-RateLimit-Limit`, `-Reset` and `-Rule` and, past
///   the limit, 429 `Rate limit exceeded` with `Retry-After`;
/// - an integration semaphore: at most ``concurrentRequests`` requests handled at once, ``queuedRequests`` more
///   waiting, any further one answered 429;
/// - session synchronization: the requests sharing a `JSESSIONID` cookie handled one at a time, and past
///   ``sessionQueue`` of them waiting, answered 202 with no body (dropped);
/// - transaction quotas: a Table, Import Set, Aggregate or Attachment API request cancelled past ``apiQuota``, a
///   batch past ``batchQuota``, with the platform's 500 `Transaction cancelled: maximum execution time exceeded`.
///
/// Every answer then carries `Server-Timing: sem_wait;dur=…, sesh_wait;dur=…` (milliseconds spent waiting for the
/// semaphore and for the session).
public struct PlatformLimits: Sendable {
    /// Whether the `sys_rate_limit_rules` records are enforced.
    public var rateRules: Bool
    /// The window the rules count requests in (an hour on the platform; shorter for tests and rehearsals). Windows
    /// are aligned on the Unix epoch, so that a reset falls on a whole multiple of it.
    public var rateWindow: Duration
    /// The most requests handled at once (the platform's integration semaphore: 4 per node); nil for no limit.
    public var concurrentRequests: Int?
    /// The most requests waiting for the semaphore; one more is answered 429.
    public var queuedRequests: Int
    /// The most requests of one session (`JSESSIONID` cookie) waiting behind the one being handled; one more is
    /// answered 202 and dropped. nil: requests of one session are not synchronized.
    public var sessionQueue: Int?
    /// The longest a Table, Import Set, Aggregate or Attachment API request may run (60 seconds on the platform);
    /// nil for no quota.
    public var apiQuota: Duration?
    /// The longest a batch request may run (30 seconds on the platform); nil for no quota.
    public var batchQuota: Duration?
    /// The clock the rate rules count by (windows and resets): tests give one they control.
    public var clock: @Sendable () -> Date
    /// The clock transaction quotas are measured on (a `ContinuousClock`): tests give one that moves with the work
    /// the instance does, so that a quota cuts a request off at the same point on a loaded machine as on an idle one.
    public var quotaClock: any Clock<Duration>

    /// Limits; the defaults enforce none.
    public init(
        rateRules: Bool = false, rateWindow: Duration = .seconds(3600), concurrentRequests: Int? = nil,
        queuedRequests: Int = 50, sessionQueue: Int? = nil, apiQuota: Duration? = nil, batchQuota: Duration? = nil,
        clock: @escaping @Sendable () -> Date = { Date() }, quotaClock: any Clock<Duration> = ContinuousClock()
    ) {
        self.rateRules = rateRules
        self.rateWindow = rateWindow
        self.concurrentRequests = concurrentRequests
        self.queuedRequests = queuedRequests
        self.sessionQueue = sessionQueue
        self.apiQuota = apiQuota
        self.batchQuota = batchQuota
        self.clock = clock
        self.quotaClock = quotaClock
    }

    /// The platform's: rate rules counted per hour, 4 concurrent requests with 50 queued, 10 queued per session,
    /// quotas of 60 seconds (30 for batches).
    public static let pdi = PlatformLimits(
        rateRules: true, concurrentRequests: 4, queuedRequests: 50, sessionQueue: 10, apiQuota: .seconds(60),
        batchQuota: .seconds(30))

    /// Whether any limit is on.
    public var isEnforcing: Bool {
        rateRules || concurrentRequests != nil || sessionQueue != nil || apiQuota != nil || batchQuota != nil
    }
}
