/// The end of the transaction quota of the request being answered (``PlatformLimits/apiQuota``,
/// ``PlatformLimits/batchQuota``), in nanoseconds on the monotonic clock of ``StatementDeadline``: bound around the
/// request, so that every SQL statement it runs stops there (and its answer is the platform's
/// `Transaction cancelled: maximum execution time exceeded`). nil: no quota.
enum TransactionQuota {
    @TaskLocal static var deadline: UInt64?
}
