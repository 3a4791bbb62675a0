/// The transaction quota of the request being answered (``PlatformLimits/apiQuota``, ``PlatformLimits/batchQuota``):
/// its end on the clock of the instance's limits (``PlatformLimits/quotaClock``), bound around the request, so that
/// every SQL statement it runs stops there (and its answer is the platform's
/// `Transaction cancelled: maximum execution time exceeded`).
struct TransactionQuota: Sendable {
    /// The quota of the request being answered; nil: no quota.
    @TaskLocal static var current: TransactionQuota?

    /// Reads the clock the quota started on, and compares with its end.
    private let hasRunOut: @Sendable () -> Bool

    /// A quota of `duration` from now on `clock`.
    init<C: Clock<Duration>>(_ duration: Duration, on clock: C) {
        let end = clock.now.advanced(by: duration)
        hasRunOut = { clock.now > end }
    }

    /// Whether the quota has run out.
    var isPast: Bool { hasRunOut() }
}
