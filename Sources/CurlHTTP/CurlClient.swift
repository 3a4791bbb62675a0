import Foundation

/// HTTP(S) over libcurl's multi interface, on a thread of its own: the requests of one client run side by side
/// there and share its kept-alive connections.
///
/// The thread starts with the first request and runs until ``shutDown()`` (then ends once the requests in progress
/// have finished). Cancelling the task that awaits ``send(_:)`` ends its transfer with ``CurlError/cancelled``.
/// Redirects are not followed; certificates are checked against the system's authorities; compressed responses
/// are accepted; the proxy environment variables (`https_proxy`, `no_proxy`, ...) apply.
///
/// ```swift
/// let client = try CurlClient()
/// defer { client.shutDown() }
/// let response = try await client.send(
///     CurlRequest(method: "GET", url: url, timeout: .seconds(60), reusesConnection: true))
/// ```
package final class CurlClient: Sendable {
    private let engine: CurlEngine

    /// A client; ``CurlError/failed(_:)`` when libcurl cannot start.
    package init() throws(CurlError) {
        engine = try CurlEngine()
    }

    /// Sends `request` and returns the response, whatever its status.
    package func send(_ request: CurlRequest) async throws(CurlError) -> CurlResponse {
        let submission = CurlSubmission()
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                do throws(CurlError) {
                    submission.start(try CurlTransfer(request, continuation: continuation), on: engine)
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        } onCancel: {
            submission.cancel(on: engine)
        }
        return try outcome.get()
    }

    /// Whether the client's thread runs (from the first request until the end after ``shutDown()``).
    package var isRunning: Bool {
        engine.isRunning
    }

    /// Ends the client's thread once the requests in progress have finished.
    package func shutDown() {
        engine.shutDown()
    }
}
