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

    /// Whether the transport streams ``NowHTTPRequest/bodyFile`` and ``NowHTTPRequest/responseBodyFile`` itself,
    /// a chunk at a time, so that a large file never has to fit in memory; false (the default): NowData reads
    /// and writes those files whole around ``send(_:)``.
    var streamsFiles: Bool { get }
}

extension NowTransport {
    /// False: NowData reads and writes request and response files whole for this transport.
    public var streamsFiles: Bool { false }
}
