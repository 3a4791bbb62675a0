/// `attachments`: the metadata of a record's attachments.
struct AttachmentsStep: Sendable, Hashable {
    var table: Template
    var sysID: Template
}
