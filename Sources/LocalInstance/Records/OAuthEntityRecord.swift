/// An `oauth_entity` record (a registered OAuth application) as `/oauth_token.do` reads it to check a client.
struct OAuthEntityRecord: Sendable, Equatable {
    var sysID: String
    /// `client_id`.
    var clientID: String
    /// `client_secret`, as ``PasswordHash`` stores it.
    var secretHash: String
    /// `user`: the sys_id of the user `client_credentials` acts as; empty when it names none.
    var userSysID: String

    /// The application of a stored `oauth_entity` row.
    init(_ stored: StoredRecord) {
        sysID = stored["sys_id"] ?? ""
        clientID = stored["client_id"] ?? ""
        secretHash = stored["client_secret"] ?? ""
        userSysID = stored["user"] ?? ""
    }
}
