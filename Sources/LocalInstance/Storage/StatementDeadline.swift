#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// When the statement a connection is running must stop: its budget on the monotonic clock, and the request's
/// transaction quota on its own clock; SQLite's progress handler reads it through an unretained pointer, on the
/// thread running the statement.
///
/// Unchecked `Sendable`: like its ``SQLiteConnection``, it is only used by the thread that holds the connection.
final class StatementDeadline: @unchecked Sendable {
    /// Nanoseconds on the monotonic clock; 0 when no statement runs.
    private var deadline: UInt64 = 0
    /// The transaction quota of the request the statement runs for (``TransactionQuota/current``), if any.
    private var quota: TransactionQuota?

    /// Starts the budget of a statement: `nanoseconds` from now, cut short by the request's transaction quota.
    func start(budget nanoseconds: UInt64) {
        deadline = Self.now() &+ nanoseconds
        quota = TransactionQuota.current
    }

    /// Ends it.
    func clear() {
        deadline = 0
        quota = nil
    }

    /// Whether a statement is running past its budget or its request's quota.
    var isPast: Bool {
        deadline != 0 && (Self.now() > deadline || quota?.isPast == true)
    }

    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }
}
