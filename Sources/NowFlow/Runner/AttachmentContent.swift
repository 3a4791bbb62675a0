import Foundation
import NowData

/// The bytes of an attachment under their file name: the content type the name gives when a step sets none, and how
/// a step's line describes them (`notes.txt (12 bytes, SHA-256 5f2b...)`).
struct AttachmentContent {
    /// The attachment's file name.
    var name: String
    /// Its bytes.
    var data: Data

    /// The content type of the name's extension; `application/octet-stream` for one not known.
    var contentType: String {
        Self.contentTypes[(name as NSString).pathExtension.lowercased()] ?? "application/octet-stream"
    }

    /// The SHA-256 digest of the bytes, in lowercase hexadecimal, as the Attachment API's `hash`.
    var sha256: String {
        var hasher = SHA256()
        hasher.update(data)
        return hasher.finalizeHex()
    }

    /// `12 bytes`, `1 byte`.
    var size: String {
        "\(data.count) byte\(data.count == 1 ? "" : "s")"
    }

    private static let contentTypes = [
        "txt": "text/plain", "log": "text/plain", "md": "text/markdown", "csv": "text/csv", "html": "text/html",
        "htm": "text/html", "xml": "application/xml", "json": "application/json", "yaml": "application/yaml",
        "yml": "application/yaml", "pdf": "application/pdf", "png": "image/png", "jpg": "image/jpeg",
        "jpeg": "image/jpeg", "gif": "image/gif", "svg": "image/svg+xml", "zip": "application/zip",
        "gz": "application/gzip",
    ]
}
