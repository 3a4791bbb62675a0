import Foundation
import Synchronization
@preconcurrency import Glibc

/// A pipe's text, read on a thread of its own as the process writes it, for a test to wait for a marker in it.
final class CollectedText: Sendable {
    private let text: Mutex<String>
    private let done = DispatchSemaphore(value: 0)

    /// Starts reading `pipe` until its writers close it, after `start` (what was read from it before).
    init(_ pipe: Pipe, after start: String = "") {
        text = Mutex(start)
        let reader = Thread { [self] in
            let handle = pipe.fileHandleForReading
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                self.text.withLock { $0 += String(decoding: chunk, as: UTF8.self) }
            }
            self.done.signal()
        }
        reader.start()
    }

    /// Waits until the text contains `marker`, for five minutes at most (a guard against a hang, not a measure of
    /// speed: beside busy loops a request has taken over a minute to reach the instance); returns whether it did.
    func waitFor(_ marker: String) -> Bool {
        let deadline = ContinuousClock.now + .seconds(300)
        while ContinuousClock.now < deadline {
            if text.withLock({ $0.contains(marker) }) { return true }
            usleep(10_000)
        }
        return text.withLock { $0.contains(marker) }
    }

    /// The text so far, up to and with the first line that contains `marker` (waiting for it as ``waitFor(_:)``
    /// does); nil when none does.
    func lines(through marker: String) -> String? {
        guard waitFor(marker) else { return nil }
        return text.withLock { text in
            var lines: [Substring] = []
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                lines.append(line)
                if line.contains(marker) { break }
            }
            return lines.joined(separator: "\n") + "\n"
        }
    }

    /// The whole text, once the pipe is closed.
    func whole() -> String {
        done.wait()
        return text.withLock { $0 }
    }
}
