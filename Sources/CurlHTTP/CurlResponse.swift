import Foundation

/// The response to a ``CurlRequest``, as it arrived.
package struct CurlResponse: Sendable {
    /// The HTTP status code.
    package var statusCode: Int
    /// The header fields of the final response (those of a `100 Continue` before it are dropped), in order.
    package var headers: [(String, String)]
    /// The body, decompressed.
    package var body: Data
}
