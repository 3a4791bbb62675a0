import Foundation

/// The answer of a ``NowAPIService`` request: the body as it came, with the status and headers.
public struct DataResponse: Sendable, Hashable {
    /// The response body.
    public var data: Data
    /// The HTTP status, such as 200.
    public var statusCode: Int
    /// The response headers.
    public var headers: HTTPHeaders

    /// A response.
    public init(data: Data, statusCode: Int, headers: HTTPHeaders = HTTPHeaders()) {
        self.data = data
        self.statusCode = statusCode
        self.headers = headers
    }
}
