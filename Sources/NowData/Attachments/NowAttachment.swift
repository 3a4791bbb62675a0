import Foundation

/// A downloaded attachment: its metadata (from the `X-Attachment-Metadata` header) and its bytes.
///
/// ```swift
/// let attachment = try await attachmentService.attachment(for: sysId, validateAttachment: false)
/// try attachment.validate()   // later, when needed
/// ```
public struct NowAttachment: Sendable, Hashable {
    /// The response header that carries an attachment's metadata as JSON.
    public static let attachmentMetadataHeaderKey = "X-Attachment-Metadata"

    /// The attachment's metadata.
    public var metadata: NowAttachmentMetadata
    /// The attachment's bytes.
    public var data: Data

    /// An attachment of `metadata` and `data`.
    public init(metadata: NowAttachmentMetadata, data: Data) {
        self.metadata = metadata
        self.data = data
    }

    /// Checks the bytes against the metadata's hash: their SHA-256 digest, in hexadecimal, must equal it (in any
    /// letter case).
    ///
    /// - Throws: ``NowDataError/attachmentValidation`` when the digests differ or the metadata has no hash.
    public func validate() throws {
        guard let expected = metadata.hash?.lowercased() else { throw NowDataError.attachmentValidation }
        var hasher = SHA256()
        var offset = data.startIndex
        while offset < data.endIndex {
            let end = data.index(offset, offsetBy: 1 << 20, limitedBy: data.endIndex) ?? data.endIndex
            hasher.update(data[offset..<end])
            offset = end
        }
        guard hasher.finalizeHex() == expected else { throw NowDataError.attachmentValidation }
    }
}
