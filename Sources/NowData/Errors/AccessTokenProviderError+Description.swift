import Foundation

extension AccessTokenProviderError: CustomStringConvertible, LocalizedError {
    /// What failed in obtaining an access token; never the token or the credentials.
    public var description: String {
        switch self {
        case .accessTokenRetrievalFailed: "no access token could be obtained"
        case .userSessionError(let error): "the user session failed: \(ErrorText.describe(error))"
        }
    }

    public var errorDescription: String? { description }
}
