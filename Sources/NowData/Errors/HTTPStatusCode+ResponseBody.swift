import Foundation

extension HTTPStatusCode {
    /// A status with the `error.message` and `error.detail` of a Table API error body,
    /// `{"error": {"message": "...", "detail": "..."}, "status": "failure"}`.
    ///
    /// A body that is not such JSON (empty, HTML from a proxy) leaves both nil, and so does a null or empty field.
    ///
    /// ```swift
    /// let status = HTTPStatusCode(code: response.statusCode, responseBody: response.body,
    ///                             method: request.method, path: request.path)
    /// ```
    public init(code: Int, responseBody: Data, method: String? = nil, path: String? = nil) {
        let error = (try? JSONDecoder().decode(ErrorBody.self, from: responseBody))?.error
        self.init(
            code: code, message: error?.message.flatMap(Self.nonEmpty), detail: error?.detail.flatMap(Self.nonEmpty),
            method: method, path: path)
    }

    /// `bad response 404 from GET /api/now/table/incident/abc: No Record found (Record doesn't exist or ...)`.
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
        case (nil, nil): break
        }
        return text
    }

    private static func nonEmpty(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }
}

/// The Table API's error body.
private struct ErrorBody: Decodable {
    struct Failure: Decodable {
        var message: String?
        var detail: String?
    }

    var error: Failure?
}
