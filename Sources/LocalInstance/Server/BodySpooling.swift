import Foundation
import NowData

/// Which request bodies an ``HTTPListener`` writes to a file as they arrive instead of holding them, and how
/// large they may grow: the local instance's raw attachment uploads, so that a file of any size allowed crosses
/// the server in bounded memory. The handler gets the file as ``NowData/NowHTTPRequest/bodyFile`` and its SHA-256
/// digest, computed as the bytes arrived, in the ``digestHeader`` header.
public struct BodySpooling: Sendable {
    /// The header that carries a spooled body's SHA-256 digest (lowercase hexadecimal) to the handler. The
    /// listener sets it only with a spooled file, and replaces any the client sent.
    public static let digestHeader = "X-Nowflow-Body-SHA256"

    /// The largest spooled body, in bytes; a larger one is answered with `tooLarge`'s response.
    public var limit: Int
    /// The file to spool the body of a request to (`method`, percent-encoded `path`), or nil to hold it in
    /// memory as usual. A spooled file the handler leaves in place is removed after the request.
    public var destination: @Sendable (_ method: String, _ path: String) -> URL?
    /// The answer to a body larger than ``limit``.
    public var tooLarge: NowHTTPResponse

    /// Spooling of the bodies `destination` names, up to `limit` bytes.
    public init(
        limit: Int, tooLarge: NowHTTPResponse, destination: @escaping @Sendable (String, String) -> URL?
    ) {
        self.limit = limit
        self.tooLarge = tooLarge
        self.destination = destination
    }
}
