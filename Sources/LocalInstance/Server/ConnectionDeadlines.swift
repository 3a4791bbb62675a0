import Foundation
#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Synchronization

/// The deadlines of an ``HTTPListener``'s connections and the thread that enforces them.
///
/// libmicrohttpd's connection timeout only closes a connection that stays silent; one that sends a header byte every
/// few seconds would hold its thread for ever. Here every request's headers must arrive within ``headerTimeout`` of
/// the connection opening (or of the previous answer on a kept-alive connection), and its body must arrive at
/// ``minimumBodyRate`` on average after a first ``headerTimeout``. A connection past its deadline is shut down
/// (`shutdown(2)`), and libmicrohttpd closes it as one the client closed.
///
/// Unchecked `Sendable`: `stopping` and `ended` are read and written under `sweeper`, the clocks under their mutex.
final class ConnectionDeadlines: @unchecked Sendable {
    /// How long a request's headers may take, in nanoseconds; also the body's grace before the rate counts.
    let headerTimeout: UInt64
    /// How long each byte of a body may take, in nanoseconds (the minimum rate's inverse).
    let nanosecondsPerBodyByte: UInt64

    /// The slowest body accepted on average, in bytes per second, after the first header timeout.
    static let minimumBodyRate: UInt64 = 1024

    private let clocks = Mutex<[ObjectIdentifier: ConnectionClock]>([:])
    private let sweeper = NSCondition()
    /// Whether the sweeping thread must end.
    private var stopping = false
    /// Whether the sweeping thread has ended.
    private var ended = false
    /// How often the connections are checked, in seconds.
    private let interval: TimeInterval

    /// Deadlines of `headerTimeout` for the headers; starts the sweeping thread.
    init(headerTimeout: Duration) {
        let (seconds, attoseconds) = headerTimeout.components
        // At least a millisecond, at most a day.
        let nanoseconds = min(
            max(UInt64(clamping: min(seconds, 86_400)) * 1_000_000_000 + UInt64(clamping: attoseconds / 1_000_000_000),
                1_000_000), 86_400_000_000_000)
        self.headerTimeout = nanoseconds
        nanosecondsPerBodyByte = 1_000_000_000 / Self.minimumBodyRate
        // A quarter of the timeout, between 50 ms and a second: a connection is closed at most that late.
        interval = min(max(Double(nanoseconds) / 4e9, 0.05), 1)
        Thread.detachNewThread { [self] in sweep() }
    }

    /// Watches a new connection on `socket`; nil when its socket cannot be duplicated (it is then not watched).
    func watch(socket: Int32) -> ConnectionClock? {
        guard let clock = ConnectionClock(socket: socket) else { return nil }
        clock.awaitHeaders(within: headerTimeout)
        clocks.withLock { $0[ObjectIdentifier(clock)] = clock }
        return clock
    }

    /// Stops watching a closed connection.
    func forget(_ clock: ConnectionClock) {
        // Under the lock, so that the sweeper never shuts down a socket closed here.
        clocks.withLock { clocks in
            clocks[ObjectIdentifier(clock)] = nil
            clock.closeSocket()
        }
    }

    /// Ends the sweeping thread (once every connection is closed); calling it again does nothing.
    func stop() {
        sweeper.lock()
        stopping = true
        sweeper.broadcast()
        while !ended { sweeper.wait() }
        sweeper.unlock()
        let left = clocks.withLock { clocks in
            defer { clocks = [:] }
            return Array(clocks.values)
        }
        for clock in left { clock.closeSocket() }
    }

    private func sweep() {
        sweeper.lock()
        while !stopping {
            _ = sweeper.wait(until: Date(timeIntervalSinceNow: interval))
            guard !stopping else { break }
            let now = ConnectionClock.now()
            clocks.withLock { clocks in
                for clock in clocks.values where clock.expire(now: now) { shutdown(clock.socket, Int32(SHUT_RDWR)) }
            }
        }
        ended = true
        sweeper.broadcast()
        sweeper.unlock()
    }
}
