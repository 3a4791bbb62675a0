extension TableAPIError {
    /// 400: an upload without a required parameter (`table_name`, `table_sys_id`, `file_name`).
    static func missingAttachmentParameter(_ name: String) -> TableAPIError {
        TableAPIError(
            status: 400, message: "Failed to create the attachment", detail: "The \(name) parameter is required")
    }

    /// 400: an upload to a table the dictionary does not have, or `sys_attachment` itself.
    static func invalidAttachmentTable(_ name: String) -> TableAPIError {
        TableAPIError(status: 400, message: "Failed to create the attachment", detail: "Invalid table \(name)")
    }

    /// 400: an upload whose `file_name` is longer than the Attachment API takes.
    static func fileNameTooLong(_ length: Int, limit: Int) -> TableAPIError {
        TableAPIError(
            status: 400, message: "Failed to create the attachment",
            detail: "file_name is \(length) bytes long; the local instance takes at most \(limit) bytes")
    }

    /// 404: an upload to a record that does not exist (or that the user may not read).
    static func missingAttachmentRecord(table: String, sysID: String) -> TableAPIError {
        TableAPIError(
            status: 404, message: "Failed to create the attachment",
            detail: "No record \(sysID) in the table \(table)")
    }

    /// 400: a multipart upload without a file part, or a body that is not multipart/form-data.
    static let missingFilePart = TableAPIError(
        status: 400, message: "Failed to create the attachment. File part might be missing in the request.",
        detail: nil)

    /// 400: an upload larger than `com.glide.attachment.max_size`.
    static func attachmentTooLarge(limit: Int) -> TableAPIError {
        TableAPIError(
            status: 400, message: "Failed to create the attachment",
            detail: "The file exceeds the maximum attachment size (com.glide.attachment.max_size: \(limit) bytes)")
    }

    /// 400: a multipart upload with more parts than the form may have.
    static func tooManyFormParts(limit: Int) -> TableAPIError {
        TableAPIError(
            status: 400, message: "Failed to create the attachment",
            detail: "The form has more than \(limit) parts")
    }

    /// 400: a multipart upload with a field (a part without a file name) larger than a field may be.
    static func formFieldTooLarge(_ name: String, limit: Int) -> TableAPIError {
        TableAPIError(
            status: 400, message: "Failed to create the attachment",
            detail: "The form field \(name) exceeds \(limit) bytes")
    }

    /// 404: no attachment with that sys_id (or its file is gone), as the Table API answers a missing record: clients
    /// show the detail (servicenow.itsm's `attachment_info` fails with "Status code: 404, Details: Record ...").
    static let noAttachment = TableAPIError.noRecord
}
