/// `attach`: a file, or a text the job builds, uploaded and attached to a record.
struct AttachStep: Sendable, Hashable {
    /// Where the bytes come from.
    enum Source: Sendable, Hashable {
        /// `file:`: a path, relative to the job file's directory unless absolute.
        case file(Template)
        /// `content:`: a text (a report the job built), uploaded as UTF-8.
        case content(Template)
    }

    var table: Template
    var sysID: Template
    var source: Source
    /// `name:`: the attachment's file name; by default the file's last path component.
    var name: Template?
    /// `content_type:`; by default guessed from the name's extension.
    var contentType: Template?
}
