import Foundation

/// The seam between NowData and an instance: one request value in, one response value out.
///
/// Everything above it (query parameters, authentication headers, `Link` pagination, error bodies,
/// retries) is the same code whichever transport runs. Implementations: ``CurlTransport`` (the default) and
/// ``URLSessionTransport`` over HTTP(S), the local instance in process, and closures in tests.
///
/// A transport throws ``NetworkServiceError`` when no HTTP response arrives: `.operationCancelled` when
/// the calling task is cancelled, `.systemError` or `.serverError` for a refused, timed out or dropped
/// connection. Any HTTP status, including 4xx and 5xx, is a response, not an error.
public protocol NowTransport: Sendable {
    /// Sends one request and returns the instance's response.
    func send(_ request: NowHTTPRequest) async throws -> NowHTTPResponse
}
