#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Installs the process's signal handlers (with `SA_RESTART`, so that reads and writes interrupted by a signal go on).
enum SignalHandler {
    /// Makes `handler` the handler of each of `signals`.
    static func install(_ handler: @convention(c) (Int32) -> Void, for signals: [Int32]) {
        var action = sigaction()
        #if canImport(Glibc)
            action.__sigaction_handler.sa_handler = handler
        #else
            action.__sigaction_u.__sa_handler = handler
        #endif
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        for signal in signals { sigaction(signal, &action, nil) }
    }
}
