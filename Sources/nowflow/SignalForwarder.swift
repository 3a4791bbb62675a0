import Foundation
import NowFlow

#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `nowflow run`'s SIGINT and SIGTERM: each is forwarded to a ``RunInterruption`` (the first stops the steps, a
/// second stops `finally`), with a line on stderr saying what happens next. The process is not ended by the signal.
///
/// The handler only writes the signal's number to a pipe (safe in a handler); a thread reading the pipe forwards it.
enum SignalForwarder {
    /// The pipe's write end, for the handler.
    nonisolated(unsafe) private static var writeEnd: Int32 = -1

    /// Installs the handlers for SIGINT and SIGTERM (unblocked on the calling thread) and starts the forwarding
    /// thread; call once, from the main thread.
    static func forward(to interruption: RunInterruption) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return }
        writeEnd = ends[1]
        SignalHandler.install(
            { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(SignalForwarder.writeEnd, &byte, 1)
            }, for: [SIGINT, SIGTERM])
        // A process started with them blocked (as by some test runners and process managers) would not see them.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
        let readEnd = ends[0]
        let thread = Thread {
            var byte: UInt8 = 0
            var count = 0
            while true {
                let read = read(readEnd, &byte, 1)
                if read < 0, errno == EINTR { continue }
                guard read == 1 else { return }
                let signal: RunInterruption.Signal = Int32(byte) == SIGTERM ? .terminate : .interrupt
                count += 1
                printError(
                    count == 1
                        ? "nowflow run: \(signal.rawValue): cancelling the request in flight and skipping the remaining steps; finally runs (a second signal stops it)"
                        : "nowflow run: \(signal.rawValue) again: stopping finally")
                interruption.signal(signal)
            }
        }
        thread.start()
    }
}
