import Foundation

/// A source of OAuth access tokens for ``NowAuthentication/bearer(_:)``.
///
/// The service asks for a token before every request and sends it as `Authorization: Bearer <token>`;
/// cache it in the provider. Throw ``AccessTokenProviderError`` when no token can be had: the service
/// reports it as ``NowDataError/accessToken(_:)``.
///
/// ```swift
/// struct StaticToken: AccessTokenProvider {
///     let token: String
///     func accessToken() async throws -> String { token }
/// }
/// ```
public protocol AccessTokenProvider: Sendable {
    /// A currently valid access token.
    func accessToken() async throws -> String
}
