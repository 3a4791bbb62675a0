/// `download`: an attachment's bytes written to a file, checked against the attachment's SHA-256 hash.
struct DownloadStep: Sendable, Hashable {
    /// Which attachment.
    enum Source: Sendable, Hashable {
        /// `attachment:`: the attachment's sys_id.
        case attachment(Template)
        /// `table:`, `sys_id:` and `file_name:`: the newest attachment of that name on the record.
        case record(table: Template, sysID: Template, fileName: Template)
    }

    var source: Source
    /// `to:`: the path to write, relative to the job file's directory unless absolute.
    var to: Template
    /// `overwrite: true` replaces a file that exists; otherwise the step refuses to.
    var overwrite = false
}
