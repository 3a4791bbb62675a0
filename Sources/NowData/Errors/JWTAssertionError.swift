/// Why the JWT bearer grant (``NowAuthentication/jwtBearer(clientID:clientSecret:privateKeyPEM:keyID:subject:)``)
/// could make no assertion, as ``NowDataError/accessToken(_:)`` reports it (never showing the key).
struct JWTAssertionError: Error, Sendable, CustomStringConvertible {
    /// What was wrong.
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
