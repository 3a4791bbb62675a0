import Foundation

/// One response from an instance, independent of how it travelled.
public struct NowHTTPResponse: Sendable, Hashable {
    /// The HTTP status code.
    public var statusCode: Int
    /// The response headers.
    public var headers: HTTPHeaders
    /// The body; empty for 204.
    public var body: Data
    /// The file that holds the body instead of ``body``: the request's ``NowHTTPRequest/responseBodyFile`` once
    /// written, or, from a server's handler (the local instance's), a file to send as the body.
    public var bodyFile: URL?
    /// The SHA-256 digest (lowercase hexadecimal) of the bytes written to ``bodyFile``, when the transport computed
    /// it as they arrived (``CurlTransport`` does); nil otherwise.
    public var bodyFileSHA256: String?

    /// A response.
    public init(statusCode: Int, headers: HTTPHeaders = HTTPHeaders(), body: Data = Data()) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
    }
}
