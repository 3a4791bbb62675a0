/// An `oauth_jwt` record (an OAuth application that takes the JWT bearer grant) as `/oauth_token.do` reads it to
/// check an assertion.
struct OAuthJWTRecord: Sendable, Equatable {
    var sysID: String
    /// `client_id`: what the assertion's `aud` and `iss` must be.
    var clientID: String
    /// `user_field`: the `sys_user` field the assertion's `sub` names a user by (`user_name` when empty).
    var userField: String
    /// `enable_jti_verification`: each assertion is single-use, by its `jti`.
    var verifiesJTI: Bool
    /// `clock_skew`: how many seconds `exp` and `nbf` may be off by (300 when empty, never negative).
    var clockSkew: Int

    /// The application of a stored `oauth_jwt` row.
    init(_ stored: StoredRecord) {
        sysID = stored["sys_id"] ?? ""
        clientID = stored["client_id"] ?? ""
        let field = stored["user_field"] ?? ""
        userField = field.isEmpty ? "user_name" : field
        verifiesJTI = stored["enable_jti_verification"] != "false"
        clockSkew = max(0, Int(stored["clock_skew"] ?? "") ?? 300)
    }
}
