import Foundation

extension NowHTTPRequest {
    /// The request's full URL on the instance at `instanceURL`, whose path, if any, prefixes the request's.
    ///
    /// The path goes as it is, already percent-encoded (see ``path``); one that is not (a space, a `%` that does
    /// not start `%XX`) is refused rather than guessed at. A `+` in the query is sent as `%2B`: a server reads a
    /// bare `+` as a space, and ServiceNow's encoded queries may contain it.
    func url(on instanceURL: URL) throws -> URL {
        guard var components = URLComponents(url: instanceURL, resolvingAgainstBaseURL: false) else {
            throw NetworkServiceError.genericError("The instance URL is not valid.")
        }
        guard path.hasPrefix("/"), Self.isPercentEncodedPath(path) else {
            throw NetworkServiceError.genericError(
                "The request path \(path) is not percent-encoded: it must start with / and write a space, #, ?, "
                    + "a % sign or a non-ASCII letter as %XX (NowHTTPRequest.percentEncodedPathSegment(_:) encodes "
                    + "a segment).")
        }
        let instancePath = components.percentEncodedPath
        let prefix = instancePath.hasSuffix("/") ? String(instancePath.dropLast()) : instancePath
        components.percentEncodedPath = prefix + path
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
