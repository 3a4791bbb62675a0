import Foundation
import NowData

/// An error answer of the Table API: a status and the platform's body
/// `{"error":{"message":...,"detail":...},"status":"failure"}`.
struct TableAPIError: Error, Sendable {
    var status: Int
    var message: String
    var detail: String?
    var headers: HTTPHeaders = HTTPHeaders()

    /// The response, with the JSON body.
    var response: NowHTTPResponse {
        var headers = headers
        headers["Content-Type"] = "application/json;charset=UTF-8"
        let body: JSONValue = [
            "error": ["message": .string(message), "detail": detail.map(JSONValue.string) ?? .null],
            "status": "failure",
        ]
        return NowHTTPResponse(statusCode: status, headers: headers, body: body.jsonData())
    }

    /// 401: no credentials, or wrong ones. The challenge names the scheme the request tried, as the platform's
    /// does: `BEARER realm="Service-now"` for a refused bearer token, else `BASIC realm="Service-now"`.
    static func notAuthenticated(_ request: NowHTTPRequest) -> TableAPIError {
        let authorization = request.headers.value(named: "Authorization") ?? ""
        let scheme = authorization.lowercased().hasPrefix("bearer ") ? "BEARER" : "BASIC"
        return TableAPIError(
            status: 401, message: "User Not Authenticated", detail: "Required to provide Auth information",
            headers: ["WWW-Authenticate": "\(scheme) realm=\"Service-now\""])
    }

    /// 404: no record with that sys_id (or, on v1, an empty list).
    static let noRecord = TableAPIError(
        status: 404, message: "No Record found", detail: "Record doesn't exist or ACL restricts the record retrieval")

    /// 400: a table the dictionary does not have.
    static func invalidTable(_ name: String) -> TableAPIError {
        TableAPIError(status: 400, message: "Invalid table \(name)", detail: nil)
    }

    /// 400: a path that is not a Table API resource.
    static let unknownResource = TableAPIError(
        status: 400, message: "Requested URI does not represent any resource", detail: nil)

    /// 400: a path segment that is not valid percent-encoding (a `%` not followed by two hexadecimal digits, or
    /// bytes that are not UTF-8 text).
    static func malformedPath(_ path: String, segment: String) -> TableAPIError {
        TableAPIError(
            status: 400, message: "Malformed percent-encoding in the request path",
            detail: "The segment '\(segment)' of \(path) does not decode: a % must start two hexadecimal digits "
                + "(a % sign itself is sent as %25) and the bytes must be UTF-8 text")
    }

    /// 400: a `Host` header that is not a host name or address with an optional port.
    static func invalidHost(_ host: String) -> TableAPIError {
        TableAPIError(
            status: 400, message: "Invalid Host header",
            detail: "The Host header '\(host)' is not a host name or address with an optional :port")
    }

    /// 405: a method the resource does not take.
    static func methodNotSupported(_ method: String) -> TableAPIError {
        TableAPIError(status: 405, message: "Method not Supported", detail: "\(method) method not supported for API")
    }

    /// 400: a body that is not a JSON object.
    static let invalidBody = TableAPIError(
        status: 400, message: "Exception while reading request", detail: "The payload is not valid JSON.")

    /// 413: a body longer than the listener takes.
    static func bodyTooLarge(limit: Int) -> TableAPIError {
        TableAPIError(status: 413, message: "Request body too large", detail: "The body exceeds \(limit) bytes")
    }

    /// 400: a query with more parameters than the listener takes.
    static func tooManyParameters(limit: Int) -> TableAPIError {
        TableAPIError(
            status: 400, message: "Too many query parameters",
            detail: "The request has more than \(limit) query parameters")
    }

    /// 414: a query that, parsed, would not leave room in the connection's memory for the headers and the answer.
    static func queryTooLong(memory: Int) -> TableAPIError {
        TableAPIError(
            status: 414, message: "Request URI too long",
            detail: "The request line and its query parameters do not fit in the \(memory / 1024) KB of a connection")
    }

    /// 400: a request with two different `Content-Length` headers.
    static let conflictingContentLength = TableAPIError(
        status: 400, message: "Exception while reading request",
        detail: "The request has more than one Content-Length header, with different values")

    /// 400: a write without a `Content-Type`.
    static let missingContentType = TableAPIError(
        status: 400, message: "Exception while reading request",
        detail: "Content-Type header is missing; send application/json")

    /// 415: a write whose body is not JSON.
    static func unsupportedMediaType(_ contentType: String) -> TableAPIError {
        TableAPIError(
            status: 415, message: "Unsupported Media Type",
            detail: "Content-Type '\(contentType)' is not supported; send application/json")
    }

    /// 400: a negative `sysparm_offset`.
    static func negativeOffset(_ value: String) -> TableAPIError {
        TableAPIError(
            status: 400, message: "Invalid sysparm_offset value",
            detail: "sysparm_offset must not be negative: \(value)")
    }

    /// 400: an encoded query the local instance refuses (a `javascript:` value).
    static func invalidQuery(_ error: EncodedQueryError) -> TableAPIError {
        TableAPIError(status: 400, message: "Invalid query", detail: error.description)
    }

    /// 400: a query within the documented limits that SQLite still finds too large (`message` is SQLite's).
    static func queryTooLarge(_ message: String) -> TableAPIError {
        TableAPIError(
            status: 400, message: "Invalid query",
            detail: "the query is too large for the local instance's SQLite: \(message); use fewer conditions")
    }

    /// 400: a POST whose own `sys_id` is not 32 lowercase hex digits (the project's rule: the platform would
    /// assign another, and a client reading the record back by the one it gave would not find it).
    static func invalidSysID(_ value: String) -> TableAPIError {
        TableAPIError(
            status: 400, message: "Invalid sys_id",
            detail: "sys_id '\(value)' is not 32 hexadecimal digits")
    }

    /// 400: a date or date-time field given a value that is not a real day (and time) in its format.
    static func invalidDate(table: String, field: FieldDefinition, value: String) -> TableAPIError {
        let format = field.type == .date ? "yyyy-MM-dd date" : "yyyy-MM-dd HH:mm:ss date-time (UTC)"
        return TableAPIError(
            status: 400, message: "Invalid date value for \(field.name)",
            detail: "\(table).\(field.name) is a \(field.type.name) field: '\(value)' is not a valid \(format)")
    }

    /// 403: an insert refused, such as a duplicate sys_id.
    static func insertFailed(table: String, record: String) -> TableAPIError {
        TableAPIError(status: 403, message: "Operation Failed", detail: "Error during insert of \(table) (\(record))")
    }

    /// 403: a write to `sys_audit`, which the instance keeps.
    static let auditWrite = TableAPIError(
        status: 403, message: "The field history is read-only",
        detail: "sys_audit is written by the instance: one record per field that a creation sets or an update "
            + "changes, and one per deletion")

    /// 403: a write to a dictionary table (`sys_db_object`, `sys_dictionary`, `sys_choice`), which the local
    /// instance generates from its table definitions.
    static func readOnlyDictionary(_ table: String) -> TableAPIError {
        TableAPIError(
            status: 403, message: "The local instance's dictionary is read-only",
            detail: "\(table) is generated from the table definitions: the built-in tables and the dictionary file "
                + "(nowflow serve --schema FILE); to add a table or a field, edit the dictionary file and restart")
    }

    /// 500: a statement that ran past its time budget (``LocalInstance/Options/statementBudget``), in the
    /// platform's words for a transaction past its quota.
    static let executionTimeExceeded = TableAPIError(
        status: 500, message: "Transaction cancelled: maximum execution time exceeded",
        detail: "Check logs for error trace or enable glide.rest.debug property to verify REST request processing")

    /// 500: an internal failure (logged; the body does not carry SQL).
    static let internalFailure = TableAPIError(
        status: 500, message: "Internal Server Error",
        detail: "Check logs for error trace or enable glide.rest.debug property to verify REST request processing")
}
