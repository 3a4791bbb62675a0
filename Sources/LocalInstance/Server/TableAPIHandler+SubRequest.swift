import Foundation
import NowData

extension TableAPIHandler {
    /// A Table API request made for `request`, another API's, as the user of `access`: how the APIs beside the
    /// Table API (Change Management, Import Sets) read and write records, so that the table's roles, rules and
    /// system fields apply to them as to any Table API call. It keeps the request's headers (the caller's
    /// `Host`), without a method override.
    ///
    /// - Throws: the Table API's error, or the database's.
    func subRequest(
        _ method: String, _ path: String, _ items: [URLQueryItem] = [], for request: NowHTTPRequest,
        as access: AccessPolicy.Access, body: JSONValue? = nil
    ) throws -> NowHTTPResponse {
        var inner = NowHTTPRequest(
            method: method, path: path, queryItems: items, headers: request.headers, body: body?.jsonData())
        inner.headers["X-HTTP-Method-Override"] = nil
        inner.headers["X-no-response-body"] = nil
        if body != nil { inner.headers["Content-Type"] = "application/json" }
        guard let routed = try TableAPIRequest(inner) else { throw TableAPIError.unknownResource }
        return try handle(routed, as: access)
    }

    /// The `result` of a sub-request's JSON answer.
    static func result(of response: NowHTTPResponse) throws -> JSONValue {
        guard case .object(let envelope) = try JSONValue(json: response.body), let result = envelope["result"] else {
            throw TableAPIError.internalFailure
        }
        return result
    }
}
