/// Why an ``HTTPListener`` could not start: the address it was given and the reason.
public struct HTTPListenerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The host the listener was asked to bind.
    public let host: String
    /// The port the listener was asked to bind (0: any free port).
    public let port: UInt16
    /// The reason, such as `Address already in use`.
    public let reason: String

    /// An error for `host:port` with `reason`.
    public init(host: String, port: UInt16, reason: String) {
        self.host = host
        self.port = port
        self.reason = reason
    }

    /// `cannot listen on 127.0.0.1:8080: Address already in use`.
    public var description: String {
        "cannot listen on \(host):\(port): \(reason)"
    }
}
