import Foundation

/// `http`: one request to any API of the job's instance, with its credentials, and what its answer must be.
struct HTTPStep: Sendable, Hashable {
    /// `GET` unless given.
    var method: Template?
    /// The path below the instance URL, such as `/api/now/stats/incident`.
    var path: Template
    var query: [NamedTemplate]
    var headers: [NamedTemplate]
    /// A mapping or list is sent as JSON, a text as it is.
    var body: TemplateValue?
    var expect: HTTPExpectation?

    /// A path as written, percent-encoded where it is not already, and the query items after a `?` in it.
    static func split(_ written: String) -> (path: String, queryItems: [URLQueryItem]) {
        let parts = written.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        var path = String(parts[0])
        if !path.contains("%") { path = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path }
        guard parts.count == 2 else { return (path, []) }
        var components = URLComponents()
        components.percentEncodedQuery = String(parts[1])
        return (path, components.queryItems ?? [])
    }
}
