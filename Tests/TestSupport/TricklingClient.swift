import Foundation
import Synchronization

/// A client that sends `chunks` one after the other, `interval` apart, on a thread of its own, until they are all
/// sent or ``stop()`` is called; ``sent`` counts the chunks written before then.
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
                connection.send(chunk)
                state.withLock { $0.sent += 1 }
                Thread.sleep(forTimeInterval: pause)
            }
        }
    }

    public var sent: Int { state.withLock { $0.sent } }

    public func stop() { state.withLock { $0.stopped = true } }
}
