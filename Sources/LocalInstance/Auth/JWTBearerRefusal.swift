/// Why the JWT bearer grant refuses an assertion: answered 400 `invalid_grant` with ``reason`` as the
/// `error_description` and logged with the client's id. A reason says what was wrong and where, and never repeats
/// the assertion, a claim's value or a secret.
struct JWTBearerRefusal: Error, Equatable {
    /// What was wrong, such as `the assertion has expired (exp)`.
    var reason: String

    init(_ reason: String) {
        self.reason = reason
    }
}
