import Foundation
import NowData

/// Which request bodies an ``HTTPListener`` writes to a file, or hands to a ``RequestBodyReceiver``, as they
/// arrive instead of holding them, and how large they may grow: the local instance's raw attachment uploads (to a
/// file) and multipart uploads (to a receiver that parses them into their files), so that a file of any size
/// allowed crosses the server in bounded memory. The handler gets a spooled file as
/// ``NowData/NowHTTPRequest/bodyFile`` and its SHA-256 digest, computed as the bytes arrived, in the
/// ``digestHeader`` header; what a receiver took in is named by ``receivedBodyHeader``. Neither body is bound by
/// the listener's body limit.
public struct BodySpooling: Sendable {
    /// The header that carries a spooled body's SHA-256 digest (lowercase hexadecimal) to the handler. The
    /// listener sets it only with a spooled file, and replaces any the client sent.
    public static let digestHeader = "X-Nowflow-Body-SHA256"

    /// The header by which a ``RequestBodyReceiver`` names what it took in to the handler. The listener removes
    /// any the client sent.
    public static let receivedBodyHeader = "X-Nowflow-Received-Body"

    /// The largest spooled body, in bytes; a larger one is answered with `tooLarge`'s response.
    public var limit: Int
    /// The file to spool the body of a request to (`method`, percent-encoded `path`), or nil to hold it in
    /// memory as usual. A spooled file the handler leaves in place is removed after the request.
    public var destination: @Sendable (_ method: String, _ path: String) -> URL?
    /// The answer to a body larger than ``limit``.
    public var tooLarge: NowHTTPResponse
    /// The receiver to hand the body of a request (`method`, percent-encoded `path`, `Content-Type`) to as it
    /// arrives, for a body `destination` does not spool; nil to hold it as usual. The receiver sets its own limits.
    public var receiver: @Sendable (_ method: String, _ path: String, _ contentType: String) -> (any RequestBodyReceiver)?

    /// Spooling of the bodies `destination` names, up to `limit` bytes, and receiving of those `receiver` takes.
    public init(
        limit: Int, tooLarge: NowHTTPResponse, destination: @escaping @Sendable (String, String) -> URL?,
        receiver: @escaping @Sendable (String, String, String) -> (any RequestBodyReceiver)? = { _, _, _ in nil }
    ) {
        self.limit = limit
        self.tooLarge = tooLarge
        self.destination = destination
        self.receiver = receiver
    }
}
