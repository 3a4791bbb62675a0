import NowData

/// A bearer token given by the job (`auth.token`), as an access token provider.
struct StaticAccessToken: AccessTokenProvider {
    let token: String

    func accessToken() async throws -> String { token }
}
