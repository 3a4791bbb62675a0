import Foundation
import Synchronization

/// The default HTTP(S) transport: libcurl's multi interface on a thread of its own, as fast as the `curl`
/// command on the same requests.
///
/// Reads (`GET`, `HEAD`) reuse kept-alive connections; every other request (a create, an update, a delete, a token
/// request) goes on a fresh connection that is closed after it, so that a write whose response was lost fails at
/// once instead of being sent again by libcurl on a new connection, and the service's retry logic decides what
/// to do. Each request may take at most `timeout`; cancelling the calling task cancels the request
/// (``NetworkServiceError/operationCancelled``). Responses come back as they are: a 401 at once, whatever
/// `WWW-Authenticate` says, and redirects are not followed. A refused, dropped or timed-out connection is
/// ``NetworkServiceError/systemError(_:)`` with the `URLError` URLSession would give. Certificates are checked
/// against the system's authorities; compressed responses are accepted; the proxy environment variables
/// (`https_proxy`, `no_proxy`, ...) apply. It never logs.
///
/// ```swift
/// let transport = CurlTransport(instanceURL: URL(string: "https://example.service-now.com")!)
/// ```
public final class CurlTransport: NowTransport {
    private let instanceURL: URL
    private let timeout: Duration
    let engine: Result<CurlEngine, any Error>

    /// A transport to the instance at `instanceURL` (its path, if any, prefixes every request's path).
    public init(instanceURL: URL, timeout: Duration = .seconds(60)) {
        self.instanceURL = instanceURL
        self.timeout = timeout
        engine = Result { try CurlEngine() }
    }

    deinit {
        try? engine.get().shutDown()
    }

    public func send(_ request: NowHTTPRequest) async throws -> NowHTTPResponse {
        let engine = try engine.get()
        let url = try request.url(on: instanceURL)
        let submission = Submission()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                do {
                    let transfer = try CurlTransfer(request, to: url, timeout: timeout, continuation: continuation)
                    submission.start(transfer, on: engine)
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        } onCancel: {
            submission.cancel(on: engine)
        }
    }
}

extension CurlTransport: CustomReflectable {
    /// The instance and the timeout, without any user or password the instance URL carries, for `dump`.
    public var customMirror: Mirror {
        Mirror(self, children: ["instanceURL": instanceURL.redactingUserInfo, "timeout": timeout], displayStyle: .class)
    }
}

/// The transfer of one send, so that a cancellation arriving before it starts still ends it.
private final class Submission: Sendable {
    private let state = Mutex<(transfer: CurlTransfer?, isCancelled: Bool)>((nil, false))

    func start(_ transfer: CurlTransfer, on engine: CurlEngine) {
        let isCancelled = state.withLock { state in
            state.transfer = transfer
            return state.isCancelled
        }
        if isCancelled { transfer.isCancelled.store(true, ordering: .relaxed) }
        engine.submit(transfer)
    }

    func cancel(on engine: CurlEngine) {
        let transfer = state.withLock { state in
            state.isCancelled = true
            return state.transfer
        }
        guard let transfer else { return }
        transfer.isCancelled.store(true, ordering: .relaxed)
        engine.cancelTransfers()
    }
}
