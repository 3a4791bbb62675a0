/// A `jwt_verifier_map` record with the `sys_certificate` it names: a key that verifies an `oauth_jwt`
/// application's assertions, as `/oauth_token.do` reads it.
struct JWTVerifierRecord: Sendable, Equatable {
    /// `kid`: the key id an assertion's header names this key by; empty for assertions that name none.
    var kid: String
    /// The certificate's `pem_certificate`, when the map names an active `sys_certificate`; nil otherwise.
    var pem: String?

    /// The verifier of a stored `jwt_verifier_map` row and its certificate's row (nil when there is none).
    init(_ stored: StoredRecord, certificate: StoredRecord?) {
        kid = stored["kid"] ?? ""
        pem = certificate.flatMap { $0["active"] == "true" ? $0["pem_certificate"] : nil }
    }
}
