import Foundation
import LocalInstance
import NowData

/// The local instance `nowflow serve --db :memory:` runs (demo data, `admin` with `password`), behind an HTTP
/// listener in the test process, for tests that signal the built binary while one of its requests waits: the test
/// knows when each request has arrived, and `hold` chooses how long each answer waits, so that the signal lands
/// while the chosen request is held, however slow the machine (a `--latency` on every request leaves it to luck).
final class HeldInstance: Sendable {
    /// The port the listener picked.
    let port: UInt16
    private let instance: LocalInstance
    private let listener: HTTPListener
    private let arrivals: Arrivals

    /// Requests as `METHOD path`, in the order they arrived, how many of them are held, and the condition their
    /// waiters wait on.
    ///
    /// Unchecked `Sendable`: `requests` and `held` are only read and written under `condition`.
    private final class Arrivals: @unchecked Sendable {
        let condition = NSCondition()
        var requests: [String] = []
        var held = 0
    }

    /// Starts listening on a free port; `hold` gives how long the answer to each request waits, from its zero-based
    /// index in arrival order and the request (the instance handles it at once: a write is stored). It is called
    /// for one request at a time, in arrival order.
    init(password: String = "pw", hold: @escaping @Sendable (_ index: Int, _ request: NowHTTPRequest) -> Duration)
        throws
    {
        let instance = try LocalInstance(options: LocalInstance.Options(adminPassword: password, log: { _ in }, passwordIterations: 1_000))
        let arrivals = Arrivals()
        do {
            listener = try HTTPListener { request in
                arrivals.condition.lock()
                let delay = hold(arrivals.requests.count, request)
                arrivals.requests.append("\(request.method) \(request.path)")
                if delay > .zero { arrivals.held += 1 }
                arrivals.condition.broadcast()
                arrivals.condition.unlock()
                switch instance.reply(to: request) {
                case .respond(let response, _): return .respond(response, after: delay)
                case .dropConnection: return .dropConnection(after: delay)
                }
            }
        } catch {
            instance.close()
            throw error
        }
        self.instance = instance
        self.arrivals = arrivals
        port = listener.port
    }

    deinit {
        listener.stop()
        instance.close()
    }

    /// The requests that have arrived, as `METHOD path`.
    var requests: [String] {
        arrivals.condition.lock()
        defer { arrivals.condition.unlock() }
        return arrivals.requests
    }

    /// Waits until `count` requests that `hold` held have arrived, for a minute at most (a guard against a hang);
    /// returns whether they did.
    func waitForHeld(_ count: Int) -> Bool {
        let deadline = Date(timeIntervalSinceNow: 60)
        arrivals.condition.lock()
        defer { arrivals.condition.unlock() }
        while arrivals.held < count {
            guard arrivals.condition.wait(until: deadline) else { return arrivals.held >= count }
        }
        return true
    }
}
