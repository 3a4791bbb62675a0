import Foundation
import NowFlow
import Synchronization

#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `nowflow run`'s signals: SIGINT, SIGTERM and SIGHUP, and a closed stdout or stderr (SIGPIPE is ignored, and a
/// write that fails with EPIPE stands for it, see ``OutputStreams``). Each is forwarded to a ``RunInterruption``
/// (the first stops the steps, a second stops `finally`), with a line on stderr saying what happens next. The
/// process is not ended by the signal. A closed output after another signal is not a second one: under Ctrl-C the
/// reader of a pipe (`| head`) goes too, and that must not stop the clean-up.
///
/// The handler only writes the signal's number to a pipe (safe in a handler); a thread reading the pipe forwards it.
enum SignalForwarder {
    /// The pipe's write end, for the handler.
    nonisolated(unsafe) private static var writeEnd: Int32 = -1
    /// How many signals have been forwarded.
    private static let forwarded = Atomic<Int>(0)

    /// Installs the handlers for SIGINT, SIGTERM and SIGHUP (unblocked on the calling thread), ignores SIGPIPE and
    /// starts the forwarding thread; call once, from the main thread.
    static func forward(to interruption: RunInterruption) {
        OutputStreams.ignoreBrokenPipe()
        OutputStreams.onClose { stream in
            guard interruption.firstSignal == nil else { return }
            deliver(.closedOutput, named: "\(stream.rawValue) closed (SIGPIPE)", to: interruption)
        }
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return }
        writeEnd = ends[1]
        SignalHandler.install(
            { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(SignalForwarder.writeEnd, &byte, 1)
            }, for: [SIGINT, SIGTERM, SIGHUP])
        // A process started with them blocked (as by some test runners and process managers) would not see them.
        var signals = sigset_t()
        sigemptyset(&signals)
        for signal in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&signals, signal) }
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
        let readEnd = ends[0]
        let thread = Thread {
            var byte: UInt8 = 0
            while true {
                let read = read(readEnd, &byte, 1)
                if read < 0, errno == EINTR { continue }
                guard read == 1 else { return }
                let signal: RunInterruption.Signal =
                    switch Int32(byte) {
                    case SIGTERM: .terminate
                    case SIGHUP: .hangup
                    default: .interrupt
                    }
                deliver(signal, named: signal.rawValue, to: interruption)
            }
        }
        thread.start()
    }

    /// Says on stderr what `signal` does, and forwards it.
    private static func deliver(_ signal: RunInterruption.Signal, named name: String, to interruption: RunInterruption) {
        let count = forwarded.add(1, ordering: .relaxed).newValue
        printError(
            count == 1
                ? "nowflow run: \(name): cancelling the request in flight and skipping the remaining steps; finally runs (a second signal stops it)"
                : "nowflow run: \(name) again: stopping finally")
        interruption.signal(signal)
    }
}
