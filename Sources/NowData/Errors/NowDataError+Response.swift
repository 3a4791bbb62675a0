import Foundation

extension NowDataError {
    /// The HTTP status of a bad response; nil for other errors.
    public var statusCode: Int? {
        guard case .badResponse(let statusCode) = self else { return nil }
        return statusCode.code
    }

    /// The server's `error.message` of a bad response, when its body carried one.
    public var serverMessage: String? {
        guard case .badResponse(let statusCode) = self else { return nil }
        return statusCode.message
    }

    /// The server's `error.detail` of a bad response, when its body carried one.
    public var serverDetail: String? {
        guard case .badResponse(let statusCode) = self else { return nil }
        return statusCode.detail
    }
}
