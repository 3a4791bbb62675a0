/// A REST API of the instance that ``NowAPIService`` calls: a scripted REST API or any other endpoint, such as
/// `/api/now/stats/incident`.
///
/// ```swift
/// struct Endpoint: NowAPIEndpoint {
///     let httpMethod: HTTPMethod
///     let relativePath: String
///     let requiresAuthentication: Bool
/// }
/// let endpoint = Endpoint(httpMethod: .get, relativePath: "/api/now/account", requiresAuthentication: true)
/// ```
public protocol NowAPIEndpoint: Sendable {
    /// The HTTP method the endpoint takes.
    var httpMethod: HTTPMethod { get }
    /// The endpoint's path below the instance URL, such as `/api/now/account` (percent-encoded, as
    /// ``NowHTTPRequest/path`` is; a missing leading `/` is added).
    var relativePath: String { get }
    /// Whether the request carries the service's credentials; true unless the endpoint says otherwise.
    var requiresAuthentication: Bool { get }
}

extension NowAPIEndpoint {
    /// Endpoints require authentication unless they say otherwise.
    public var requiresAuthentication: Bool { true }
}
