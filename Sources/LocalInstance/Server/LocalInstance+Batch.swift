import Foundation
import NowData

/// The Batch API, `POST /api/now/v1/batch`: several REST requests in one, each run in order through the same
/// handler (and authorisation) as if sent alone.
///
/// The body is `{"batch_request_id": ..., "rest_requests": [{"id", "method", "url", "headers": [{"name",
/// "value"}], "body": base64}]}`; the answer is `{"batch_request_id", "serviced_requests": [{"id",
/// "status_code", "status_text", "headers", "body": base64, "execution_time"}], "unserviced_requests": [...]}`.
/// An inner request without its own `Authorization` header carries the batch's (or, in a batch sent through
/// ``LocalInstance/transport(actingAs:)`` without credentials, is the acting user's). One that lacks a method or a URL
/// is listed, by id, among the unserviced requests.
///
/// Bounded work: the body must be `application/json` (as the Table API's writes), a batch holds at most
/// ``maximumBatchRequests`` requests, and its answer at most ``maximumBatchAnswerBytes`` of inner bodies: the
/// request whose answer passes it is listed among the unserviced requests (its answer dropped), and so is every one
/// after it, not run. An inner request must be a REST API request (`/api/...`) other than a batch:
/// `/oauth_token.do` (a password guess per item) and a batch in a batch are answered 400.
extension LocalInstance {
    /// The most requests a batch holds.
    static let maximumBatchRequests = 1000
    /// The most bytes of inner response bodies a batch's answer holds (before base64).
    static let maximumBatchAnswerBytes = 16 << 20

    /// Whether `path` is the Batch API's (`/api/now/batch` or `/api/now/v1/batch`).
    static func isBatchPath(_ path: String) -> Bool {
        path == "/api/now/v1/batch" || path == "/api/now/batch"
    }

    /// The answer to an authenticated batch request; with `user`, the batch is that user's (already authenticated),
    /// and so is each inner request without credentials of its own.
    func batch(_ request: NowHTTPRequest, as user: String?) throws(TableAPIError) -> NowHTTPResponse {
        guard request.method.uppercased() == "POST" else { throw .methodNotSupported(request.method) }
        try TableAPIHandler.requireJSON(request)
        guard let body = request.body, case .object(let object)? = try? JSONValue(json: body),
            case .array(let inner)? = object["rest_requests"]
        else { throw .invalidBody }
        guard inner.count <= Self.maximumBatchRequests else {
            throw TableAPIError(
                status: 400, message: "Too many batch requests",
                detail: "The batch has \(inner.count) rest_requests; the local instance runs at most "
                    + "\(Self.maximumBatchRequests) in one batch")
        }
        var serviced: [JSONValue] = []
        var unserviced: [JSONValue] = []
        var answerBytes = 0
        let clock = ContinuousClock()
        for case .object(let item) in inner {
            let id = Self.text(item["id"]) ?? ""
            guard answerBytes <= Self.maximumBatchAnswerBytes, let method = Self.text(item["method"]),
                let url = Self.text(item["url"]),
                let innerRequest = Self.request(method: method, url: url, item: item, outer: request)
            else {
                unserviced.append(.string(id))
                continue
            }
            let start = clock.now
            var response =
                Self.isBatchable(innerRequest.path)
                ? handle(innerRequest, as: innerRequest.carriesCredentials ? nil : user)
                : Self.notBatchable(innerRequest.path).response
            if let file = response.bodyFile {
                // A download inside a batch: its bytes go into the batch's answer, when they fit.
                let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
                let fits = answerBytes + size <= Self.maximumBatchAnswerBytes
                response.body = fits ? (try? Data(contentsOf: file)) ?? Data() : Data()
                answerBytes += size
                response.bodyFile = nil
            } else {
                answerBytes += response.body.count
            }
            guard answerBytes <= Self.maximumBatchAnswerBytes else {
                unserviced.append(.string(id))
                continue
            }
            let elapsed = clock.now - start
            let milliseconds = Int(
                elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
            serviced.append(
                .object([
                    "id": .string(id), "status_code": .number(JSONNumber(response.statusCode)),
                    "status_text": .string(Self.statusText(response.statusCode)),
                    "headers": .array(
                        response.headers.map { .object(["name": .string($0.name), "value": .string($0.value)]) }),
                    "body": .string(response.body.base64EncodedString()),
                    "execution_time": .number(JSONNumber(milliseconds)),
                ]))
        }
        let answer: JSONValue = [
            "batch_request_id": .string(Self.text(object["batch_request_id"]) ?? ""),
            "serviced_requests": .array(serviced), "unserviced_requests": .array(unserviced),
        ]
        return NowHTTPResponse(
            statusCode: 200, headers: ["Content-Type": "application/json;charset=UTF-8"], body: answer.jsonData())
    }

    /// Whether a batch may hold a request for `path`: a REST API path (`/api/...`), not a batch's.
    private static func isBatchable(_ path: String) -> Bool {
        path.hasPrefix("/api/") && !isBatchPath(path)
    }

    /// 400: an inner request a batch does not run.
    private static func notBatchable(_ path: String) -> TableAPIError {
        TableAPIError(
            status: 400, message: "Requested URI does not represent any resource",
            detail: "A batch runs REST API requests (/api/...) other than batches; \(path) is not one")
    }

    /// The inner request of a batch item: its URL split into a path and decoded query items (`+` read as a
    /// space, as a form-encoded query means it), its headers, its base64 body, the batch's `Authorization` when it
    /// has none, and the batch's verified client certificate (never one the item names).
    private static func request(method: String, url: String, item: JSONObject, outer: NowHTTPRequest)
        -> NowHTTPRequest?
    {
        let parts = url.split(separator: "?", maxSplits: 1).map(String.init)
        guard let path = parts.first, path.hasPrefix("/") else { return nil }
        var queryItems: [URLQueryItem] = []
        if parts.count == 2 {
            // Split by hand: URLComponents stops the process on a query with characters a URL may not hold
            // (`^`, a space), which a batch item's URL may well have.
            func decoded(_ text: Substring) -> String {
                let spaced = text.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            queryItems = parts[1].split(separator: "&").map { pair in
                let nameAndValue = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                return URLQueryItem(
                    name: decoded(nameAndValue[0]), value: nameAndValue.count == 2 ? decoded(nameAndValue[1]) : nil)
            }
        }
        var headers = HTTPHeaders()
        if case .array(let fields)? = item["headers"] {
            for case .object(let field) in fields {
                if let name = text(field["name"]), let value = text(field["value"]) {
                    headers.add(name: name, value: value)
                }
            }
        }
        if headers["Authorization"] == nil, let authorization = outer.headers.value(named: "Authorization") {
            headers["Authorization"] = authorization
        }
        // Only the listener says which client certificate it verified: an item cannot claim one, and has the
        // batch's own.
        headers.removeAll(named: HTTPListener.clientCertificateHeader)
        if let verified = outer.headers.value(named: HTTPListener.clientCertificateHeader) {
            headers[HTTPListener.clientCertificateHeader] = verified
        }
        if headers["Host"] == nil, let host = outer.headers.value(named: "Host") { headers["Host"] = host }
        headers.removeAll(named: HTTPListener.schemeHeader)
        if let scheme = outer.headers.value(named: HTTPListener.schemeHeader) {
            headers[HTTPListener.schemeHeader] = scheme
        }
        var body: Data?
        if let encoded = text(item["body"]), !encoded.isEmpty {
            guard let decoded = Data(base64Encoded: encoded) else { return nil }
            body = decoded
        }
        return NowHTTPRequest(
            method: method.uppercased(), path: path, queryItems: queryItems, headers: headers, body: body)
    }

    /// A string or a number as text.
    private static func text(_ value: JSONValue?) -> String? {
        switch value {
        case .string(let text)?: text
        case .number(let number)?: number.text
        default: nil
        }
    }

    /// The reason phrase of a status code.
    static func statusText(_ code: Int) -> String {
        switch code {
        case 200: "OK"
        case 201: "Created"
        case 204: "No Content"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 409: "Conflict"
        case 413: "Payload Too Large"
        case 415: "Unsupported Media Type"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        default: ""
        }
    }
}
