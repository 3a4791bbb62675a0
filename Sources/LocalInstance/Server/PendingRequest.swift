import Foundation

/// One request while libmicrohttpd delivers it: the body chunks received so far, kept in the connection's
/// `con_cls` slot between calls of the access handler.
final class PendingRequest {
    /// The body received so far (empty once it exceeds the limit).
    var body = Data()
    /// Whether the body grew past the listener's limit; the request is then answered 413.
    var tooLarge = false

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
