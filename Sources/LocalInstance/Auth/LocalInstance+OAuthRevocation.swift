import Foundation
import NowData

extension LocalInstance {
    /// The path of token revocation.
    static let oauthRevokePath = "/oauth_revoke_token.do"

    /// `GET` or `POST /oauth_revoke_token.do?token=...` (or `token` in a form-urlencoded body): ends the access or
    /// refresh token, as the platform marks it expired. Like the platform's, it needs no authentication (the
    /// token is its own proof) and answers 200 whether or not the token was one (RFC 7009), so that it tells a
    /// caller nothing about tokens it does not hold; a request without a token gets 400 `invalid_request`.
    func oauthRevoke(_ request: NowHTTPRequest) -> NowHTTPResponse {
        let method = request.method.uppercased()
        guard method == "GET" || method == "POST" else {
            return TableAPIError.methodNotSupported(method).response
        }
        let contentType = request.headers.value(named: "Content-Type")?.lowercased() ?? ""
        let form =
            contentType.hasPrefix("application/x-www-form-urlencoded")
            ? Self.formFields(String(decoding: request.body ?? Data(), as: UTF8.self)) : [:]
        guard let token = form["token"] ?? request.queryItems.last(where: { $0.name == "token" })?.value,
            !token.isEmpty
        else {
            return Self.oauthError(400, "invalid_request", "the request names no token to revoke (token)")
        }
        let revoked = tokens.withLock { $0.revoke(token: token) }
        if revoked { log("local instance: an OAuth token was revoked") }
        return NowHTTPResponse(statusCode: 200, headers: ["Content-Type": "application/json;charset=UTF-8"], body: Data())
    }

    /// An OAuth refusal in the platform's shape, `{"error_description":...,"error":...}`.
    static func oauthError(_ status: Int, _ error: String, _ description: String) -> NowHTTPResponse {
        NowHTTPResponse(
            statusCode: status, headers: ["Content-Type": "application/json;charset=UTF-8"],
            body: JSONValue.object(["error_description": .string(description), "error": .string(error)]).jsonData())
    }
}
