#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// When the statement a connection is running must stop, on the monotonic clock; SQLite's progress handler reads
/// it through an unretained pointer, on the thread running the statement.
///
/// Unchecked `Sendable`: like its ``SQLiteConnection``, it is only used by the thread that holds the connection.
final class StatementDeadline: @unchecked Sendable {
    /// Nanoseconds on the monotonic clock; 0 when no statement runs.
    private var deadline: UInt64 = 0

    /// Starts the budget of a statement: `nanoseconds` from now, or the end of the request's transaction quota
    /// (``TransactionQuota/deadline``) when that comes first.
    func start(budget nanoseconds: UInt64) {
        let end = Self.now() &+ nanoseconds
        deadline = TransactionQuota.deadline.map { max(1, min($0, end)) } ?? end
    }

    /// Ends it.
    func clear() {
        deadline = 0
    }

    /// Whether a statement is running past its deadline.
    var isPast: Bool {
        deadline != 0 && Self.now() > deadline
    }

    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }
}
