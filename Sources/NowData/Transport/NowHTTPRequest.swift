import Foundation

/// One request to an instance, independent of how it travels.
public struct NowHTTPRequest: Sendable, Hashable {
    /// The HTTP method: `GET`, `POST`, `PUT`, `PATCH` or `DELETE`.
    public var method: String
    /// The path below the instance URL as it goes on the wire: percent-encoded, starting with `/`, such as
    /// `/api/now/table/incident` or `/api/now/table/my%20table/a%23b`.
    ///
    /// ``NowTableService`` encodes a table name and a sys_id each as one segment (see
    /// ``percentEncodedPathSegment(_:)``), so that a `/`, `?`, `#`, `%`, space or non-ASCII letter in them reaches
    /// the instance as part of the name. A path set by hand must be encoded the same way: the transports send it
    /// as it is, without encoding it again, and refuse one that is not encoded. Error messages
    /// (``HTTPStatusCode/path``) show it encoded.
    public var path: String
    /// The query items, in order, unencoded.
    public var queryItems: [URLQueryItem]
    /// The request headers.
    public var headers: HTTPHeaders
    /// The body, for `POST`, `PUT`, `PATCH` and the OAuth token endpoint.
    public var body: Data?
    /// A file whose bytes are the body, instead of ``body``: a transport that ``NowTransport/streamsFiles`` sends
    /// it as it reads it, a chunk at a time; for the others NowData reads it whole first.
    public var bodyFile: URL?
    /// Where the body of a successful (2xx) answer goes: a transport that ``NowTransport/streamsFiles`` writes it
    /// there as it arrives; for the others NowData writes it there once it has come. The response's ``NowHTTPResponse/body``
    /// is then empty and its ``NowHTTPResponse/bodyFile`` this file. The body of any other answer stays in memory.
    public var responseBodyFile: URL?

    /// A request.
    public init(
        method: String, path: String, queryItems: [URLQueryItem] = [], headers: HTTPHeaders = HTTPHeaders(),
        body: Data? = nil
    ) {
        self.method = method
        self.path = path
        self.queryItems = queryItems
        self.headers = headers
        self.body = body
    }

    /// The value of the first query item called `name`.
    public func queryValue(_ name: String) -> String? {
        queryItems.first { $0.name == name }?.value
    }
}
