import Foundation

/// A failure of the access token provider that authenticates requests.
public enum AccessTokenProviderError: Error, Sendable {
    /// No access token could be obtained (for example the token endpoint's answer carried none).
    case accessTokenRetrievalFailed
    /// The user's session failed; the token endpoint's refusal is a ``NowDataError/badResponse(statusCode:)``
    /// here.
    case userSessionError(_ error: any Error & Sendable)
}
