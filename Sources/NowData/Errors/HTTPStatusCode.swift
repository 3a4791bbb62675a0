import Foundation

/// The status code of an unexpected response, with what the instance said about it.
///
/// It compares and pattern-matches by its numeric code alone, so `catch NowDataError.badResponse(statusCode: 401)`
/// works; the server's message and detail and the request that failed ride along for diagnostics.
public struct HTTPStatusCode: Sendable, Hashable, ExpressibleByIntegerLiteral, CustomStringConvertible {
    /// The numeric HTTP status, such as 404.
    public var code: Int
    /// The server's `error.message`, when the body carried one.
    public var message: String?
    /// The server's `error.detail`, when the body carried one.
    public var detail: String?
    /// The request's method, such as `GET`.
    public var method: String?
    /// The request's path, such as `/api/now/table/incident` (never its query or credentials).
    public var path: String?

    /// A status with its context.
    public init(code: Int, message: String? = nil, detail: String? = nil, method: String? = nil, path: String? = nil) {
        self.code = code
        self.message = message
        self.detail = detail
        self.method = method
        self.path = path
    }

    public init(integerLiteral value: Int) {
        self.init(code: value)
    }

    public static func == (lhs: HTTPStatusCode, rhs: HTTPStatusCode) -> Bool { lhs.code == rhs.code }

    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    public var description: String { String(code) }
}
