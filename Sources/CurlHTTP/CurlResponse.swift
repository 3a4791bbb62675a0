import Foundation

/// The response to a ``CurlRequest``, as it arrived.
package struct CurlResponse: Sendable {
    /// The HTTP status code.
    package var statusCode: Int
    /// The header fields of the final response (those of a `100 Continue` before it are dropped), in order.
    package var headers: [(String, String)]
    /// The body, decompressed (empty when it went to the request's `responseFile`).
    package var body: Data
    /// The request's `responseFile`, when the body was written there.
    package var bodyFile: URL?
}
