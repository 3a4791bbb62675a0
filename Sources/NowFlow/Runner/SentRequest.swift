import Foundation
import NowData

/// A request the run sent to the instance and how it ended, for `nowflow run --verbose`: each attempt NowData makes
/// (a retried request is listed once per attempt), the name check's reads included; a dry run's writes, which are
/// not sent, are not. Masked: no secret appears in it.
public struct SentRequest: Sendable, Hashable {
    /// `GET`, `POST`, `PATCH`, `DELETE`.
    public var method: String
    /// The path and query as sent, the query's values unencoded (`/api/now/table/incident?sysparm_query=active=true`).
    public var path: String
    /// The answer's status code; nil when no answer came (a network error, a cancelled request).
    public var status: Int?
    /// Why no answer came, when none did.
    public var failure: String?
    /// How long the request took.
    public var milliseconds: Int

    /// `GET /api/now/table/incident?sysparm_limit=1 → 200 (3 ms)`, or `→ no answer: ...` when none came.
    public var description: String {
        let outcome = status.map(String.init) ?? "no answer: \(failure ?? "cancelled")"
        return "\(method) \(path) → \(outcome) (\(milliseconds) ms)"
    }

    /// The path of `request` with its query, the values as they are.
    static func path(of request: NowHTTPRequest) -> String {
        guard !request.queryItems.isEmpty else { return request.path }
        let query = request.queryItems.map { item in item.value.map { "\(item.name)=\($0)" } ?? item.name }
        return request.path + "?" + query.joined(separator: "&")
    }
}
