import Foundation

/// What an upload attaches, and to which record: the table and record, the file name, the content type and an
/// optional encryption context.
///
/// ```swift
/// let config = NowAttachmentUploadConfiguration(
///   tableName: "incident", recordSysId: recordSysId, fileName: "photo.png",
///   contentType: "image/png", encryptionContext: nil)
/// ```
public struct NowAttachmentUploadConfiguration: Sendable, Hashable {
    /// The table of the record, such as `incident`.
    public var tableName: String
    /// The sys_id of the record to attach the file to.
    public var recordSysId: SysID
    /// The attachment's file name, kept as a name (never a path on the instance).
    public var fileName: String
    /// The HTTP content type of the bytes, such as `image/png`.
    public var contentType: String
    /// The sys_id of an encryption context record, or nil for an attachment without one.
    public var encryptionContext: String?

    /// An upload configuration.
    public init(
        tableName: String, recordSysId: SysID, fileName: String, contentType: String, encryptionContext: String?
    ) {
        self.tableName = tableName
        self.recordSysId = recordSysId
        self.fileName = fileName
        self.contentType = contentType
        self.encryptionContext = encryptionContext
    }
}
