import Foundation

/// A failure of the access token provider that authenticates requests.
public enum AccessTokenProviderError: Error, Sendable {
    /// No access token could be obtained (for example the token endpoint refused the credentials).
    case accessTokenRetrievalFailed
    /// The user's session failed.
    case userSessionError(_ error: any Error & Sendable)
}
