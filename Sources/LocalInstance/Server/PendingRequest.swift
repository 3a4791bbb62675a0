import Foundation
import NowData

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

    /// Whether the body was (or is being) spooled to a file.
    private(set) var spooled = false
    /// The file the body is written to as it arrives, when the listener spools it, with the digest so far.
    private(set) var spool: Spool?

    /// A body on its way to a file.
    struct Spool {
        var file: URL
        var handle: FileHandle
        var hasher = SHA256()
        var size = 0
        var limit: Int
        /// Whether writing failed; the request is then answered 500.
        var failed = false
    }

    /// Whether the query has more than ``maximumParameters`` parameters; the request is then answered 400.
    let hasTooManyParameters: Bool

    /// The most query parameters a request may have.
    static let maximumParameters = 1000

    /// A request whose request line named `target` (a path and maybe `?` and a query).
    init(target: String) {
        // Byte by byte: walking the target's Characters costs more than the rest of the request line's handling.
        let end = target.utf8.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? target.endIndex
        path = String(target[..<end])
        let query = target.utf8.drop { $0 != UInt8(ascii: "?") }
        hasTooManyParameters = query.reduce(1) { $1 == UInt8(ascii: "&") ? $0 + 1 : $0 } > Self.maximumParameters
    }

    /// Sends the body to `file` from now on, up to `limit` bytes; false when the file cannot be created.
    func spool(to file: URL, limit: Int) -> Bool {
        guard FileManager.default.createFile(atPath: file.path, contents: nil),
            let handle = try? FileHandle(forWritingTo: file)
        else { return false }
        spool = Spool(file: file, handle: handle, limit: limit)
        spooled = true
        return true
    }

    /// The spooled body's file and SHA-256 digest, once it has all arrived (the file closed).
    func finishSpool() -> (file: URL, digest: String, failed: Bool)? {
        guard let spool else { return nil }
        try? spool.handle.close()
        return (spool.file, spool.hasher.finalizeHex(), spool.failed)
    }

    /// Removes a spooled file the handler did not take.
    func removeSpool() {
        guard let spool else { return }
        try? spool.handle.close()
        try? FileManager.default.removeItem(at: spool.file)
        self.spool = nil
    }

    /// Appends a chunk (to the spool file when there is one), or drops the body when it would grow past `limit`
    /// bytes (the spool's own limit for a spooled body).
    func append(_ chunk: UnsafeRawBufferPointer, limit: Int) {
        guard !tooLarge else { return }
        if var spool {
            if spool.size + chunk.count > spool.limit {
                tooLarge = true
                removeSpool()
                return
            }
            spool.hasher.update(chunk)
            spool.size += chunk.count
            if !spool.failed {
                do {
                    try spool.handle.write(contentsOf: chunk)
                } catch {
                    spool.failed = true
                }
            }
            self.spool = spool
            return
        }
        if body.count + chunk.count > limit {
            tooLarge = true
            body = Data()
        } else {
            body.append(contentsOf: chunk)
        }
    }
}
