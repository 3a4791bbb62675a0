/// A `sys_user_certificate` record (a client certificate mapped to a user) as the instance reads it to
/// authenticate a verified client certificate.
struct UserCertificateRecord: Sendable, Equatable {
    /// `fingerprint`: the certificate's SHA-256, in lowercase hex without `:` or spaces (however it was written).
    var fingerprint: String
    /// `user`: the sys_id of the user the certificate maps to; empty when it names none.
    var userSysID: String

    /// The mapping of a stored `sys_user_certificate` row.
    init(_ stored: StoredRecord) {
        fingerprint = (stored["fingerprint"] ?? "").lowercased().filter { $0 != ":" && $0 != " " }
        userSysID = stored["user"] ?? ""
    }
}
