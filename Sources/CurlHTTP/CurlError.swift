import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Why a ``CurlRequest`` got no response.
package enum CurlError: Error, Sendable, Equatable {
    /// A failure URLSession reports with this code (a refused connection, a timeout, an untrusted certificate...),
    /// so that callers treat both transports alike, with the system's reason when a system call failed
    /// (`Connection refused`, `No route to host`).
    case network(URLError.Code, reason: String?)
    /// Any other failure of libcurl, described in a sentence.
    case failed(String)
    /// The calling task was cancelled.
    case cancelled
}
