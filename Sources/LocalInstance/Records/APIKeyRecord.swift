/// A `sys_api_key` record (an `x-sn-apikey` token) as the instance reads it to authenticate a request.
struct APIKeyRecord: Sendable, Equatable {
    var sysID: String
    /// `token`, as ``PasswordHash`` stores it.
    var tokenHash: String
    /// `user`: the sys_id of the user the key acts as; empty when it names none.
    var userSysID: String

    /// The key of a stored `sys_api_key` row.
    init(_ stored: StoredRecord) {
        sysID = stored["sys_id"] ?? ""
        tokenHash = stored["token"] ?? ""
        userSysID = stored["user"] ?? ""
    }
}
