import Foundation

/// The metadata of an attachment, as the instance's `sys_attachment` record and the Attachment API describe it:
/// its file name, type, size, SHA-256 hash, the record it is attached to, and who made it when.
///
/// It decodes from the Attachment API's JSON (every value a string, such as `"size_bytes": "462"`), and encodes
/// back to the same shape.
///
/// ```swift
/// let metadata = try await attachmentService.attachmentMetadata(for: sysId)
/// print(metadata.fileName, metadata.sizeInBytes ?? 0)
/// ```
public struct NowAttachmentMetadata: Sendable, Hashable, Codable {
    /// The most dominant colour of an image attachment.
    public var averageImageColor: String?
    /// The size of the chunks the instance stores the file in, in bytes.
    public var chunkSizeInBytes: Int?
    /// The compressed size, in bytes.
    public var compressedSizeInBytes: Int?
    /// When the attachment was created.
    public var created: Date?
    /// Who created the attachment.
    public var createdBy: String?
    /// The URL of the attachment's bytes on the instance (`.../api/now/attachment/{sys_id}/file`).
    public var download: URL?
    /// The attachment's file name.
    public var fileName: String
    /// The SHA-256 digest of the bytes, as lowercase hexadecimal; a download is validated against it.
    public var hash: String?
    /// The height of an image, in pixels.
    public var imageHeight: Int?
    /// The width of an image, in pixels.
    public var imageWidth: Int?
    /// Whether the instance stores the file compressed.
    public var isCompressed: Bool?
    /// The content type, such as `text/plain`.
    public var mimeType: String?
    /// The number of times the attachment was modified.
    public var modificationCount: Int?
    /// The size of the attachment, in bytes.
    public var sizeInBytes: Int?
    /// The sys_id of the record the attachment is attached to.
    public var sourceSysId: String?
    /// The table of the record the attachment is attached to.
    public var sourceTableName: String?
    /// The availability state, such as `available`.
    public var state: String?
    /// The attachment's sys_id.
    public var sysId: SysID
    /// The tags of the attachment.
    public var tags: String?
    /// When the attachment was last modified.
    public var updated: Date?
    /// Who last modified the attachment.
    public var updatedBy: String?

    /// Metadata with the given values.
    public init(
        sysId: SysID, fileName: String, mimeType: String? = nil, sizeInBytes: Int? = nil, hash: String? = nil,
        sourceTableName: String? = nil, sourceSysId: String? = nil
    ) {
        self.sysId = sysId
        self.fileName = fileName
        self.mimeType = mimeType
        self.sizeInBytes = sizeInBytes
        self.hash = hash
        self.sourceTableName = sourceTableName
        self.sourceSysId = sourceSysId
    }

    private enum CodingKeys: String, CodingKey {
        case averageImageColor = "average_image_color"
        case chunkSizeInBytes = "chunk_size_bytes"
        case compressedSizeInBytes = "size_compressed"
        case created = "sys_created_on"
        case createdBy = "sys_created_by"
        case download = "download_link"
        case fileName = "file_name"
        case hash
        case imageHeight = "image_height"
        case imageWidth = "image_width"
        case isCompressed = "compressed"
        case mimeType = "content_type"
        case modificationCount = "sys_mod_count"
        case sizeInBytes = "size_bytes"
        case sourceSysId = "table_sys_id"
        case sourceTableName = "table_name"
        case state
        case sysId = "sys_id"
        case tags = "sys_tags"
        case updated = "sys_updated_on"
        case updatedBy = "sys_updated_by"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func text(_ key: CodingKeys) throws -> String? {
            guard let value = try container.decodeIfPresent(String.self, forKey: key), !value.isEmpty else {
                return nil
            }
            return value
        }
        func number(_ key: CodingKeys) throws -> Int? {
            try text(key).flatMap { Int($0) }
        }
        func date(_ key: CodingKeys) throws -> Date? {
            try text(key).flatMap { Coder.default.date(fromText: $0) }
        }
        sysId = try container.decode(String.self, forKey: .sysId)
        fileName = try container.decode(String.self, forKey: .fileName)
        averageImageColor = try text(.averageImageColor)
        chunkSizeInBytes = try number(.chunkSizeInBytes)
        compressedSizeInBytes = try number(.compressedSizeInBytes)
        created = try date(.created)
        createdBy = try text(.createdBy)
        download = try text(.download).flatMap { URL(string: $0) }
        hash = try text(.hash)
        imageHeight = try number(.imageHeight)
        imageWidth = try number(.imageWidth)
        isCompressed = try text(.isCompressed).map { $0 == "true" }
        mimeType = try text(.mimeType)
        modificationCount = try number(.modificationCount)
        sizeInBytes = try number(.sizeInBytes)
        sourceSysId = try text(.sourceSysId)
        sourceTableName = try text(.sourceTableName)
        state = try text(.state)
        tags = try text(.tags)
        updated = try date(.updated)
        updatedBy = try text(.updatedBy)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sysId, forKey: .sysId)
        try container.encode(fileName, forKey: .fileName)
        try container.encodeIfPresent(averageImageColor, forKey: .averageImageColor)
        try container.encodeIfPresent(chunkSizeInBytes.map(String.init), forKey: .chunkSizeInBytes)
        try container.encodeIfPresent(compressedSizeInBytes.map(String.init), forKey: .compressedSizeInBytes)
        try container.encodeIfPresent(created.map { Coder.default.text(for: $0) }, forKey: .created)
        try container.encodeIfPresent(createdBy, forKey: .createdBy)
        try container.encodeIfPresent(download?.absoluteString, forKey: .download)
        try container.encodeIfPresent(hash, forKey: .hash)
        try container.encodeIfPresent(imageHeight.map(String.init), forKey: .imageHeight)
        try container.encodeIfPresent(imageWidth.map(String.init), forKey: .imageWidth)
        try container.encodeIfPresent(isCompressed.map { $0 ? "true" : "false" }, forKey: .isCompressed)
        try container.encodeIfPresent(mimeType, forKey: .mimeType)
        try container.encodeIfPresent(modificationCount.map(String.init), forKey: .modificationCount)
        try container.encodeIfPresent(sizeInBytes.map(String.init), forKey: .sizeInBytes)
        try container.encodeIfPresent(sourceSysId, forKey: .sourceSysId)
        try container.encodeIfPresent(sourceTableName, forKey: .sourceTableName)
        try container.encodeIfPresent(state, forKey: .state)
        try container.encodeIfPresent(tags, forKey: .tags)
        try container.encodeIfPresent(updated.map { Coder.default.text(for: $0) }, forKey: .updated)
        try container.encodeIfPresent(updatedBy, forKey: .updatedBy)
    }
}
