import Foundation

extension NetworkServiceError: CustomStringConvertible, LocalizedError {
    /// What failed below the Table API: `system error: connection refused at 127.0.0.1:8443`.
    public var description: String {
        switch self {
        case .serverError: "server error: \(reason)"
        case .systemError: "system error: \(reason)"
        case .genericError, .operationCancelled, .serviceDisabled: reason
        }
    }

    /// What failed, without the kind of error: `connection refused at 127.0.0.1:8443`.
    public var reason: String {
        switch self {
        case .genericError(let message): message
        case .operationCancelled: "the operation was cancelled"
        case .serviceDisabled: "the service is disabled on this instance"
        case .serverError(let error), .systemError(let error): ErrorText.describe(error)
        }
    }

    public var errorDescription: String? { description }
}
