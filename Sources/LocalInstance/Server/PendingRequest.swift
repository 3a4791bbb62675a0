import Foundation

/// One request while libmicrohttpd delivers it: its path as sent, whether the listener admitted it, and the body
/// chunks received so far, kept in the connection's `con_cls` slot from the request line to the request's end.
final class PendingRequest {
    /// The path of the request line as the client sent it, still percent-encoded (libmicrohttpd hands the access
    /// handler a decoded path, in which an encoded `/` could not be told from a separator).
    let path: String
    /// Whether the listener's tracker counts the request (from the access handler's first call).
    var isAdmitted = false
    /// The body received so far (empty once it exceeds the limit).
    var body = Data()
    /// Whether the body grew past the listener's limit; the request is then answered 413.
    var tooLarge = false

    /// Whether the query has more than ``maximumParameters`` parameters; the request is then answered 400.
    let hasTooManyParameters: Bool

    /// The most query parameters a request may have.
    static let maximumParameters = 1000

    /// A request whose request line named `target` (a path and maybe `?` and a query).
    init(target: String) {
        path = String(target.prefix { $0 != "?" && $0 != "#" })
        let query = target.utf8.drop { $0 != UInt8(ascii: "?") }
        hasTooManyParameters = query.reduce(1) { $1 == UInt8(ascii: "&") ? $0 + 1 : $0 } > Self.maximumParameters
    }

    /// Appends a chunk, or drops the body when it would grow past `limit` bytes.
    func append(_ chunk: UnsafeRawBufferPointer, limit: Int) {
        guard !tooLarge else { return }
        if body.count + chunk.count > limit {
            tooLarge = true
            body = Data()
        } else {
            body.append(contentsOf: chunk)
        }
    }
}
