import Foundation
import Synchronization

#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Ctrl-C in the REPL: while a step runs, SIGINT cancels its task (the request is abandoned and the prompt
/// comes back); at the prompt it is counted, so that the loop can tell an interrupted line from the end of input.
///
/// The signal handler only counts and writes a byte to a pipe (both safe in a handler); a thread reading the pipe
/// cancels the running task.
final class InterruptWatcher: Sendable {
    /// How many SIGINTs have arrived.
    static let received = Atomic<Int>(0)
    /// The pipe's write end, for the handler.
    nonisolated(unsafe) private static var writeEnd: Int32 = -1

    /// Cancels the running task, if any.
    private let cancelRunning = Mutex<(@Sendable () -> Void)?>(nil)

    /// Installs the handler and starts the thread that cancels.
    init() {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return }
        Self.writeEnd = ends[1]
        _ = Self.received.load(ordering: .relaxed)
        SignalHandler.install(
            { _ in
                InterruptWatcher.received.add(1, ordering: .relaxed)
                var byte: UInt8 = 1
                _ = write(InterruptWatcher.writeEnd, &byte, 1)
            }, for: [SIGINT])
        let readEnd = ends[0]
        let thread = Thread { [self] in
            var byte: UInt8 = 0
            while true {
                let count = read(readEnd, &byte, 1)
                if count == 1 {
                    self.cancelRunning.withLock { $0?() }
                } else if count < 0, errno == EINTR {
                    // The signal itself may land on this thread.
                    continue
                } else {
                    return
                }
            }
        }
        thread.start()
    }

    /// Runs `work` as a task that Ctrl-C cancels, and waits for it; a Ctrl-C that came after `received` reached
    /// `since` (between reading the line and starting the task) cancels it too.
    func run<T: Sendable>(since: Int, _ work: @escaping @Sendable () async -> T) -> T {
        let task = Task { await work() }
        cancelRunning.withLock { $0 = { task.cancel() } }
        defer { cancelRunning.withLock { $0 = nil } }
        if Self.received.load(ordering: .relaxed) != since { task.cancel() }
        return waitFor { await task.value }
    }
}
