import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One client sending a slow query over and over, on a thread of its own, while another row is measured.
final class SlowQueryLoop: Sendable {
    private let request: URLRequest
    private let running = Mutex(false)
    private let answered = Mutex(0)
    private let finished = DispatchSemaphore(value: 0)

    init(base: String, path: String, authorization: String) {
        var request = URLRequest(url: URL(string: base + path) ?? URL(fileURLWithPath: "/"))
        request.setValue(authorization, forHTTPHeaderField: "Authorization")
        request.timeoutInterval = 120
        self.request = request
    }

    /// Starts sending the query, one at a time.
    func start() {
        running.withLock { $0 = true }
        Thread.detachNewThread { [self] in
            let session = URLSession(configuration: .ephemeral)
            while running.withLock({ $0 }) {
                let done = DispatchSemaphore(value: 0)
                session.dataTask(with: request) { _, _, _ in done.signal() }.resume()
                done.wait()
                answered.withLock { $0 += 1 }
            }
            session.invalidateAndCancel()
            finished.signal()
        }
    }

    /// Stops after the query in flight; returns how many answers came.
    func stop() -> Int {
        running.withLock { $0 = false }
        finished.wait()
        return answered.withLock { $0 }
    }
}
