#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// SIGINT and SIGTERM, taken synchronously so that a server can stop cleanly.
public enum TerminationSignals {
    /// Blocks SIGINT and SIGTERM in the calling thread and in every thread it starts afterwards; call it
    /// before starting a server, so that no server thread receives them.
    public static func block() {
        var signals = termination
        pthread_sigmask(SIG_BLOCK, &signals, nil)
    }

    /// Waits until SIGINT or SIGTERM arrives (after ``block()``) and returns its number.
    @discardableResult
    public static func wait() -> Int32 {
        var signals = termination
        var received: Int32 = 0
        while sigwait(&signals, &received) != 0 {}
        return received
    }

    private static var termination: sigset_t {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        return signals
    }
}
