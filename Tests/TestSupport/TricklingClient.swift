import Foundation
import Synchronization

/// A client that sends `chunks` one after the other, `interval` apart, on a thread of its own, until they are all
/// sent, a write finds the connection closed, or ``readToEndAndStop()`` stops it.
public final class TricklingClient: Sendable {
    public let connection: RawHTTPClient.Connection
    private let state = Mutex((sent: 0, stopped: false))

    public init(port: UInt16, chunks: [[UInt8]], interval: Duration) throws {
        let connection = try RawHTTPClient.Connection(port: port)
        self.connection = connection
        let pause = Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18
        Thread.detachNewThread { [self] in
            for chunk in chunks {
                guard !state.withLock({ $0.stopped }) else { return }
                // A chunk the closed connection refused is not sent: the count says when the listener closed it,
                // however late the test reads (a loaded machine may hold its task for longer than the chunks take).
                guard connection.send(chunk) else { return }
                state.withLock { $0.sent += 1 }
                Thread.sleep(forTimeInterval: pause)
            }
        }
    }

    /// Reads until the listener closes the connection, on a thread of its own, then stops sending at once: what
    /// arrived, and how many chunks had been sent when the connection closed (however late the test resumes).
    public func readToEndAndStop() async -> (received: [UInt8], sent: Int) {
        await withCheckedContinuation { continuation in
            Thread { [self] in
                let received = connection.readToEnd()
                let sent = state.withLock { state in
                    state.stopped = true
                    return state.sent
                }
                continuation.resume(returning: (received, sent))
            }.start()
        }
    }
}
