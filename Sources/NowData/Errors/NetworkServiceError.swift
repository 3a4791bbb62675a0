import Foundation

/// A failure below the Table API: the connection, the transport or the service itself.
public enum NetworkServiceError: Error, Sendable {
    /// A failure described only by a message.
    case genericError(String)
    /// The request was cancelled, for example because its `Task` was cancelled.
    case operationCancelled
    /// The service is disabled on this instance.
    case serviceDisabled
    /// The server failed in a way that is not an HTTP status (for example it dropped the connection).
    case serverError(any Error & Sendable)
    /// The system failed: DNS, connection refused, timeout, TLS.
    case systemError(any Error & Sendable)
}
