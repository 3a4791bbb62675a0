#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Synchronization

/// The deadline of one connection of an ``HTTPListener``: by when its next request's headers must have arrived, or
/// how far its request's body may fall behind the minimum rate. None while the handler works or the answer is sent.
///
/// It holds a duplicate of the connection's socket, so that ``ConnectionDeadlines`` can shut the connection down
/// without ever touching a descriptor number libmicrohttpd has closed and the system has handed out again.
final class ConnectionClock: Sendable {
    /// A duplicate of the connection's socket, closed with the clock.
    let socket: Int32
    /// Nanoseconds on the monotonic clock; 0: no deadline.
    private let deadline = Atomic<UInt64>(0)

    /// A clock for the connection on `socket` (duplicated), or nil when it cannot be duplicated.
    init?(socket connection: Int32) {
        let duplicate = fcntl(connection, F_DUPFD_CLOEXEC, 0)
        guard duplicate >= 0 else { return nil }
        socket = duplicate
    }

    /// The next request's headers must arrive within `timeout` nanoseconds from now.
    func awaitHeaders(within timeout: UInt64) {
        deadline.store(Self.now() &+ timeout, ordering: .relaxed)
    }

    /// The headers have arrived: the body (if any) must start within `grace` nanoseconds, and each byte of it
    /// received (``received(_:atNanosecondsPerByte:)``) moves the deadline on.
    func awaitBody(grace: UInt64) {
        deadline.store(Self.now() &+ grace, ordering: .relaxed)
    }

    /// `count` bytes of the body arrived: the deadline moves on by the time they may take at the minimum rate.
    func received(_ count: Int, atNanosecondsPerByte nanoseconds: UInt64) {
        // A chunk is far smaller than 4 GB; the bound keeps the product from overflowing.
        deadline.wrappingAdd(min(UInt64(count), 1 << 32) &* nanoseconds, ordering: .relaxed)
    }

    /// The request is complete: no deadline while it is handled and answered.
    func stop() {
        deadline.store(0, ordering: .relaxed)
    }

    /// Whether the connection is past its deadline; a clock found past it has no deadline any more.
    func expire(now: UInt64) -> Bool {
        let due = deadline.load(ordering: .relaxed)
        guard due != 0, now > due else { return false }
        return deadline.compareExchange(expected: due, desired: 0, ordering: .relaxed).exchanged
    }

    /// Closes the duplicate socket (the connection itself is libmicrohttpd's).
    func closeSocket() {
        close(socket)
    }

    /// Nanoseconds on the monotonic clock.
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }
}
