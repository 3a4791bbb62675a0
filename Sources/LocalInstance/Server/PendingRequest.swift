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

    /// What the body is handed to as it arrives, when the listener has a receiver for it.
    var receiver: (any RequestBodyReceiver)?

    /// The answer to a query the listener does not parse: more than ``maximumParameters`` parameters (400), or
    /// one that, parsed, would leave the connection's memory no room for the headers and the answer (414); nil
    /// for any other.
    let queryRefusal: TableAPIError?

    /// The most query parameters a request may have.
    static let maximumParameters = 1000
    /// The connection memory libmicrohttpd takes for each query parameter it parses (its header record, 56 bytes
    /// in 0.9.75), rounded up.
    static let memoryPerParameter = 64
    /// The connection memory a request line leaves for the request's headers and the answer's: a quarter of it,
    /// at most 32 KB.
    static func reservedMemory(of connectionMemory: Int) -> Int {
        min(32 * 1024, connectionMemory / 4)
    }

    /// A request whose request line named `target` (a path and maybe `?` and a query), on a connection of
    /// `connectionMemory` bytes.
    init(target: String, connectionMemory: Int) {
        // Byte by byte: walking the target's Characters costs more than the rest of the request line's handling.
        let end = target.utf8.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? target.endIndex
        path = String(target[..<end])
        let query = target.utf8.drop { $0 != UInt8(ascii: "?") }
        let parameters = query.isEmpty ? 0 : query.reduce(1) { $1 == UInt8(ascii: "&") ? $0 + 1 : $0 }
        let needed = target.utf8.count + parameters * Self.memoryPerParameter
        if parameters > Self.maximumParameters {
            queryRefusal = .tooManyParameters(limit: Self.maximumParameters)
        } else if needed > connectionMemory - Self.reservedMemory(of: connectionMemory) {
            queryRefusal = .queryTooLong(memory: connectionMemory)
        } else {
            queryRefusal = nil
        }
    }

    /// Sends the body to `file` from now on, up to `limit` bytes; false when the file cannot be created.
    func spool(to file: URL, limit: Int) -> Bool {
        guard AttachmentContent.createPrivateFile(file),
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

    /// Removes a spooled file the handler did not take, and has the receiver remove what the handler did not take.
    func removeUntakenBody() {
        receiver?.discard()
        receiver = nil
        guard let spool else { return }
        try? spool.handle.close()
        try? FileManager.default.removeItem(at: spool.file)
        self.spool = nil
    }

    /// Appends a chunk (to the spool file when there is one, or hands it to the receiver), or drops the body when
    /// it would grow past `limit` bytes (the spool's own limit for a spooled body; the receiver's own limits).
    func append(_ chunk: UnsafeRawBufferPointer, limit: Int) {
        guard !tooLarge else { return }
        if let receiver {
            receiver.receive(chunk)
            return
        }
        if var spool {
            if spool.size + chunk.count > spool.limit {
                tooLarge = true
                removeUntakenBody()
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
