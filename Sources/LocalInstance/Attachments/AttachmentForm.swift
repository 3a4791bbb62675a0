import Foundation
import NowData
#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A multipart upload (`POST /api/now/attachment/upload`) received as its body arrives: ``MultipartFormData``
/// takes it apart, each file part is written to a file of its own in the attachment directory while it is hashed,
/// and the small fields (`table_name`, `table_sys_id`, `encryption_context`, ...) are kept. The HTTP listener
/// feeds it the chunks as they come off the socket (it is then the listener's ``RequestBodyReceiver``); in process,
/// the handler feeds it the request's body or body file. Nothing but one field's bytes is held in memory.
///
/// The limits are those of the form, not of the request: each file at most `com.glide.attachment.max_size`
/// bytes, at most ``maximumParts`` parts, each field at most ``maximumFieldSize`` bytes. Once the form breaks
/// one (or is malformed), the rest of the body is ignored and the files written so far are removed.
final class AttachmentForm {
    /// A file part, written to its own file.
    struct File: Sendable {
        /// The `filename` of its `Content-Disposition`, as sent (a name, never a path).
        var fileName: String
        /// Its `Content-Type`, if given.
        var contentType: String?
        /// The file its bytes were written to, one of ``AttachmentContent/spoolFile()``'s.
        var staged: URL
        var size: Int
        /// The SHA-256 hex digest of its bytes.
        var hash: String
    }

    /// A form that has all arrived: its fields and its file parts, in order.
    struct Received: Sendable {
        var fields: [(name: String, value: String)]
        var files: [File]

        /// The value of the first field named `name` (a part without a file name).
        func field(_ name: String) -> String? {
            fields.first { $0.name == name }?.value
        }

        /// Removes the files not yet taken as attachments.
        func removeFiles() {
            for file in files { try? FileManager.default.removeItem(at: file.staged) }
        }
    }

    /// The most parts one form may have.
    static let maximumParts = 1000
    /// The largest field (a part without a file name), in bytes.
    static let maximumFieldSize = 64 * 1024

    private var parser: MultipartFormData
    private let content: AttachmentContent
    private let maxSize: Int
    private var fields: [(name: String, value: String)] = []
    private var files: [File] = []
    private var current: Current?
    private var partCount = 0
    /// The name under which ``AttachmentContent`` holds the received form for the handler.
    private var heldToken: String?
    /// Why the form was refused; the rest of the body is ignored once it is set.
    private(set) var failure: TableAPIError?

    /// The part being received.
    private enum Current {
        case field(name: String, value: [UInt8])
        case file(File, descriptor: Int32, hasher: SHA256)
    }

    /// A form for the body of a request whose `Content-Type` is `contentType`, its files written to `content`'s
    /// directory and at most `maxSize` bytes each; nil when the type is not multipart/form-data with a boundary.
    init?(contentType: String, content: AttachmentContent, maxSize: Int) {
        guard let parser = MultipartFormData(contentType: contentType) else { return nil }
        self.parser = parser
        self.content = content
        self.maxSize = maxSize
    }

    deinit {
        closeCurrent()
    }

    /// Takes the next chunk of the body.
    func receive(_ chunk: UnsafeRawBufferPointer) {
        guard failure == nil else { return }
        do {
            try parser.feed(chunk) { event in try take(event) }
        } catch let error as TableAPIError {
            fail(error)
        } catch {
            fail(.missingFilePart)
        }
    }

    /// The form once its whole body has arrived, its files' ownership passing to the caller; the error it was
    /// refused with, its files removed, when it broke a limit, is malformed or ended before its closing delimiter.
    func finish() throws(TableAPIError) -> Received {
        if failure == nil, !parser.isComplete { fail(.missingFilePart) }
        if let failure { throw failure }
        let received = Received(fields: fields, files: files)
        files = []
        return received
    }

    /// Removes the files of a form whose body never all arrived (the client went away), and those of a form held
    /// for a handler that did not take it (the request was refused before it got to the upload).
    func discard() {
        closeCurrent()
        Received(fields: [], files: files).removeFiles()
        files = []
        if let heldToken { content.takeForm(heldToken)?.removeFiles() }
        heldToken = nil
    }

    private func take(_ event: MultipartFormData.Event) throws {
        switch event {
        case .begin(let part):
            partCount += 1
            guard partCount <= Self.maximumParts else { throw TableAPIError.tooManyFormParts(limit: Self.maximumParts) }
            guard let fileName = part.fileName else {
                current = .field(name: part.name, value: [])
                return
            }
            let staged = content.spoolFile()
            let descriptor = open(staged.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { throw TableAPIError.internalFailure }
            let file = File(fileName: fileName, contentType: part.contentType, staged: staged, size: 0, hash: "")
            files.append(file)
            current = .file(file, descriptor: descriptor, hasher: SHA256())
        case .bytes(let bytes):
            switch current {
            case .field(let name, var value):
                guard value.count + bytes.count <= Self.maximumFieldSize else {
                    throw TableAPIError.formFieldTooLarge(name, limit: Self.maximumFieldSize)
                }
                current = nil
                value.append(contentsOf: bytes)
                current = .field(name: name, value: value)
            case .file(var file, let descriptor, var hasher):
                guard file.size + bytes.count <= maxSize else { throw TableAPIError.attachmentTooLarge(limit: maxSize) }
                current = nil
                hasher.update(bytes)
                file.size += bytes.count
                current = .file(file, descriptor: descriptor, hasher: hasher)
                try Self.writeAll(bytes, to: descriptor)
            case nil:
                break
            }
        case .end:
            switch current {
            case .field(let name, let value):
                fields.append((name, String(decoding: value, as: UTF8.self)))
            case .file(var file, let descriptor, let hasher):
                file.hash = hasher.finalizeHex()
                files[files.count - 1] = file
                guard close(descriptor) == 0 else {
                    current = nil
                    throw TableAPIError.internalFailure
                }
            case nil:
                break
            }
            current = nil
        }
    }

    /// Writes all of `bytes` to `descriptor`.
    private static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) throws {
        var offset = 0
        while offset < bytes.count, let base = bytes.baseAddress {
            let written = write(descriptor, base + offset, bytes.count - offset)
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { throw TableAPIError.internalFailure }
            offset += written
        }
    }

    private func closeCurrent() {
        if case .file(_, let descriptor, _) = current { close(descriptor) }
        current = nil
    }

    private func fail(_ error: TableAPIError) {
        failure = error
        discard()
    }
}

extension AttachmentForm: RequestBodyReceiver {
    /// Hands the form to the handler: the request names it in ``BodySpooling/receivedBodyHeader`` and the handler
    /// takes it from ``AttachmentContent/takeForm(_:)``; a refused form is answered with its error instead.
    func finish(_ request: inout NowHTTPRequest) -> NowHTTPResponse? {
        do {
            let token = content.holdForm(try finish())
            heldToken = token
            request.headers[BodySpooling.receivedBodyHeader] = token
            return nil
        } catch {
            return error.response
        }
    }
}
