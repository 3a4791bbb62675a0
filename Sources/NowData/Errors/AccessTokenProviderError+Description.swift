import Foundation

extension AccessTokenProviderError: CustomStringConvertible, LocalizedError {
    /// What failed in obtaining an access token; never the token or the credentials.
    ///
    /// The token endpoint's refusal (a ``NowDataError/badResponse(statusCode:)`` in
    /// ``userSessionError(_:)``) reads `no access token could be obtained: bad response 401 from POST
    /// /oauth_token.do: server_error (access_denied)`.
    public var description: String {
        switch self {
        case .accessTokenRetrievalFailed:
            "no access token could be obtained"
        case .userSessionError(NowDataError.badResponse(let status)):
            "no access token could be obtained: \(status.responseDescription)"
        case .userSessionError(let error):
            "the user session failed: \(ErrorText.describe(error))"
        }
    }

    public var errorDescription: String? { description }
}
