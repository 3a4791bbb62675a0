import Foundation

/// How a ``NowTableService`` authenticates its requests.
///
/// ```swift
/// let configuration = NowServiceConfiguration(
///     instanceURL: URL(string: "https://example.service-now.com")!,
///     authentication: .basic(user: "admin", password: secret))
/// ```
///
/// Its descriptions and its mirror never show a password, a client secret or a token.
public enum NowAuthentication: Sendable {
    /// No `Authorization` header.
    case none
    /// HTTP Basic authentication on every request.
    case basic(user: String, password: String)
    /// `Authorization: Bearer` with the token of a provider, asked before every request.
    case bearer(any AccessTokenProvider)
    /// OAuth 2 password grant against `POST /oauth_token.do` (form-urlencoded). The token is refreshed with
    /// the `refresh_token` grant shortly before it expires, and a request refused with 401 re-authenticates
    /// once before failing.
    case oauth(clientID: String, clientSecret: String, user: String, password: String)
    /// OAuth 2 JWT bearer grant (RFC 7523) against `POST /oauth_token.do`, for an instance's "OAuth JWT API
    /// endpoint for external clients". Before each token request the service signs a new assertion with
    /// `privateKeyPEM` (an unencrypted RSA private key, RS256), its header naming `keyID` when given (the `kid` of
    /// the instance's JWT verifier map), issued by and for `clientID` (`iss`, `aud`), about `subject` (`sub`: the
    /// user, by the application's user field), valid five minutes, with a new `jti`; it sends it with the client's
    /// id and secret. The grant gives no refresh token: near its expiry, or after a 401, the service asks again
    /// with a new assertion.
    ///
    /// ```swift
    /// let authentication = NowAuthentication.jwtBearer(
    ///     clientID: "my-client", clientSecret: secret, privateKeyPEM: try String(contentsOfFile: "client-key.pem"),
    ///     keyID: "key-1", subject: "integration.user")
    /// ```
    case jwtBearer(clientID: String, clientSecret: String, privateKeyPEM: String, keyID: String?, subject: String)
}

extension NowAuthentication: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The kind of authentication and its user, with every secret redacted.
    public var description: String {
        switch self {
        case .none: "none"
        case .basic(let user, _): "basic(user: \(user), password: <redacted>)"
        case .bearer: "bearer(<access token provider>)"
        case .oauth(let clientID, _, let user, _):
            "oauth(clientID: \(clientID), clientSecret: <redacted>, user: \(user), password: <redacted>)"
        case .jwtBearer(let clientID, _, _, let keyID, let subject):
            "jwtBearer(clientID: \(clientID), clientSecret: <redacted>, privateKeyPEM: <redacted>, keyID: "
                + "\(keyID ?? "nil"), subject: \(subject))"
        }
    }

    public var debugDescription: String { description }

    /// A mirror without the secrets, so that `dump` does not reveal them either.
    public var customMirror: Mirror {
        Mirror(self, children: ["redacted": description], displayStyle: .enum)
    }
}
