/// An HTTP request method, for a ``NowAPIEndpoint``.
public enum HTTPMethod: String, CaseIterable, Sendable, Hashable {
    case options, get, head, post, put, patch, delete, trace, connect

    /// The method as it goes on the wire: `GET`, `POST`, ...
    public var name: String { rawValue.uppercased() }
}
