internal import CMicroHTTPD
import Foundation
#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A running libmicrohttpd daemon, stopped once.
///
/// Unchecked `Sendable`: the daemon pointer is read and cleared under `lock`.
final class DaemonHandle: @unchecked Sendable {
    private let lock = NSLock()
    private var daemon: OpaquePointer?

    init(_ daemon: OpaquePointer) {
        self.daemon = daemon
    }

    /// Closes the listening socket, waits for `tracker`'s requests to finish and stops the daemon; a second
    /// call returns once the first has finished.
    func stop(draining tracker: RequestTracker) {
        lock.lock()
        defer { lock.unlock() }
        guard let running = daemon else { return }
        daemon = nil
        let listening = MHD_quiesce_daemon(running)
        if listening >= 0 { close(listening) }
        tracker.drain()
        MHD_stop_daemon(running)
    }
}
