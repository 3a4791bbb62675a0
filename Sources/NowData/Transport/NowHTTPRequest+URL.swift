import Foundation

extension NowHTTPRequest {
    /// The request's full URL on the instance at `instanceURL`, whose path, if any, prefixes the request's.
    ///
    /// A `+` in the query is sent as `%2B`: a server reads a bare `+` as a space, and ServiceNow's encoded queries
    /// may contain it.
    func url(on instanceURL: URL) throws -> URL {
        guard var components = URLComponents(url: instanceURL, resolvingAgainstBaseURL: false) else {
            throw NetworkServiceError.genericError("The instance URL is not valid.")
        }
        let prefix = components.path.hasSuffix("/") ? String(components.path.dropLast()) : components.path
        components.path = prefix + path
        components.queryItems = queryItems.isEmpty ? nil : queryItems
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        guard let url = components.url else { throw NetworkServiceError.genericError("The request URL is not valid.") }
        return url
    }

    /// Whether the request only reads, so that sending it twice does no harm and it may use a kept-alive connection.
    var isRead: Bool {
        let method = method.uppercased()
        return (method == "GET" || method == "HEAD") && body == nil
    }
}
