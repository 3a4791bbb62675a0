import Foundation

extension HTTPStatusCode {
    /// A status with the `error.message` and `error.detail` of a Table API error body,
    /// `{"error": {"message": "...", "detail": "..."}, "status": "failure"}`.
    ///
    /// An OAuth error body, `{"error": "server_error", "error_description": "access_denied"}` (what
    /// `/oauth_token.do` answers), gives its `error` as the message and its `error_description` as the detail.
    /// A body that is not such JSON (empty, HTML from a proxy) leaves both nil, and so does a null or empty field.
    ///
    /// ```swift
    /// let status = HTTPStatusCode(code: response.statusCode, responseBody: response.body,
    ///                             method: request.method, path: request.path)
    /// ```
    public init(code: Int, responseBody: Data, method: String? = nil, path: String? = nil) {
        let body = try? JSONDecoder().decode(ErrorBody.self, from: responseBody)
        self.init(
            code: code, message: body?.message.flatMap(Self.nonEmpty), detail: body?.detail.flatMap(Self.nonEmpty),
            method: method, path: path)
    }

    /// `bad response 404 from GET /api/now/table/incident/abc: No Record found (Record doesn't exist or ...)`.
    ///
    /// A 401 without the server's message (URLSession drops the body of a 401 whose challenge it declines) still
    /// says what it means: `bad response 401 from GET /api/now/table/sys_user: the instance did not accept the
    /// credentials (its error message was not received)`.
    var responseDescription: String {
        var text = "bad response \(code)"
        if let method, let path {
            text += " from \(method) \(path)"
        } else if let path {
            text += " from \(path)"
        }
        switch (message, detail) {
        case (let message?, let detail?): text += ": \(message) (\(detail))"
        case (let message?, nil): text += ": \(message)"
        case (nil, let detail?): text += ": \(detail)"
        case (nil, nil) where code == 401:
            text += ": the instance did not accept the credentials (its error message was not received)"
        case (nil, nil): break
        }
        return text
    }

    private static func nonEmpty(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }
}

/// The Table API's error body, `{"error": {"message": ..., "detail": ...}}`, or an OAuth error body,
/// `{"error": "...", "error_description": "..."}`.
private struct ErrorBody: Decodable {
    private struct Failure: Decodable {
        var message: String?
        var detail: String?
    }

    private enum CodingKeys: String, CodingKey {
        case error
        case errorDescription = "error_description"
    }

    var message: String?
    var detail: String?

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let oauthError = try? container.decodeIfPresent(String.self, forKey: .error) {
            message = oauthError
            detail = try? container.decodeIfPresent(String.self, forKey: .errorDescription)
        } else {
            let failure = try container.decodeIfPresent(Failure.self, forKey: .error)
            message = failure?.message
            detail = failure?.detail
        }
    }
}
