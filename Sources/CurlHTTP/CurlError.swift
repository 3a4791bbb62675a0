import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Why a ``CurlRequest`` got no response.
package enum CurlError: Error, Sendable, Equatable {
    /// A failure URLSession reports with this code (a refused connection, a timeout, an untrusted certificate...),
    /// so that callers treat both transports alike.
    case network(URLError.Code)
    /// Any other failure of libcurl, described in a sentence.
    case failed(String)
    /// The calling task was cancelled.
    case cancelled
}
