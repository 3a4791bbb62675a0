import Foundation
import NowData

/// The JSONv2 processor (`/{table}.do?JSONv2`), the legacy web service that the Terraform provider for ServiceNow
/// and several CLIs are built on, as the platform's documentation describes it (`c_JSONv2WebService.md`,
/// `c_ActionParameters.md`, `c_DataRetrievalAPI.md`, `c_DataModificationAPI.md`, `c_ResponseStatus.md`).
///
/// A request to `/{table}.do` that carries a `JSONv2` query parameter is the processor's, authenticated like every
/// API (Basic, bearer, API key; a 401, never the login page), never the web form's. `sysparm_action` comes from the
/// URL or, for a POST, from the JSON body (which wins); without one, a GET is `get` when it names
/// `sysparm_sys_id` and `getRecords` otherwise:
///
/// - `getRecords` (`sysparm_query`, `sysparm_record_count` up to 10,000), `get` (`sysparm_sys_id`), `getKeys`:
///   `{"records": [...]}`, each record's fields as text; `displayvalue=true` gives references' display values,
///   `displayvalue=all` adds them as `dv_<field>`; `sysparm_view` keeps a `get`'s and a `getRecords`' fields to
///   those of the table's form in that view (``viewFields(_:of:)``).
/// - `insert` (a record, or `{"records": [...]}` as `insertMultiple`), `update` (every record `sysparm_query`
///   selects), `deleteRecord` (`sysparm_sys_id`), `deleteMultiple` (`sysparm_query`): POST only; each record
///   answered with `"__status": "success"`, or `"failure"` with `"__error": {"message", "reason"}` (the Table API's
///   refusal of that record).
///
/// Every read and write is a Table API sub-request as the user, so the same access decision, rules and query path
/// apply. An error of the whole request is `{"__error": {"message", "reason"}}` with the Table API's status, or 400.
struct JSONv2Handler: Sendable {
    let tables: TableAPIHandler

    /// The most records a read answers (`glide.processor.json.row_limit`'s default).
    static let rowLimit = 10_000

    /// The table a JSONv2 request is for: `/{table}.do` with a `JSONv2` parameter; nil for any other request.
    static func table(of request: NowHTTPRequest) -> String? {
        guard request.queryItems.contains(where: { $0.name == "JSONv2" }), request.path.hasPrefix("/"),
            request.path.hasSuffix(".do")
        else { return nil }
        let name = request.path.dropFirst().dropLast(3)
        guard !name.isEmpty, !name.contains("/") else { return nil }
        return String(name)
    }

    /// An error of the whole request.
    struct Failure: Error {
        var status: Int
        var message: String
        var reason: String?

        init(status: Int = 400, _ message: String, reason: String? = nil) {
            self.status = status
            self.message = message
            self.reason = reason
        }

        init(_ error: TableAPIError) {
            self.init(status: error.status, error.message, reason: error.detail)
        }

        var response: NowHTTPResponse {
            let body: JSONValue = [
                "__error": ["message": .string(message), "reason": reason.map(JSONValue.string) ?? .null]
            ]
            return NowHTTPResponse(
                statusCode: status, headers: ["Content-Type": "application/json;charset=UTF-8"], body: body.jsonData())
        }
    }

    /// The answer to `request` on `table`, as the user of `access`.
    func handle(_ request: NowHTTPRequest, table: String, as access: AccessPolicy.Access) -> NowHTTPResponse {
        do {
            guard let definition = tables.dictionary.table(table) else { throw Failure("Invalid table \(table)") }
            let method = request.method.uppercased()
            var body = JSONObject()
            if method == "POST", let data = request.body, !data.isEmpty {
                guard case .object(let object) = try? JSONValue(json: data) else {
                    throw Failure("Invalid JSON", reason: "the body of a JSONv2 POST is a JSON object")
                }
                body = object
            }
            func parameter(_ name: String) -> String? {
                body[name]?.string ?? request.queryItems.first(where: { $0.name == name })?.value
            }
            let sysID = parameter("sysparm_sys_id")
            let action = parameter("sysparm_action") ?? (sysID == nil ? "getRecords" : "get")
            let query = parameter("sysparm_query") ?? ""
            let fields = try viewFields(parameter("sysparm_view") ?? "", of: definition)
            let reads = ["getRecords", "get", "getKeys"]
            let writes = ["insert", "insertMultiple", "update", "deleteRecord", "deleteMultiple"]
            guard reads.contains(action) || writes.contains(action) else {
                throw Failure(
                    "Invalid sysparm_action: \(action)",
                    reason: "one of " + (reads + writes).joined(separator: ", "))
            }
            guard method == "POST" || (method == "GET" && reads.contains(action)) else {
                throw Failure(status: 405, "\(method) is not supported for sysparm_action \(action)",
                    reason: "reads are GET or POST, writes POST")
            }
            for name in ["sysparm_action", "sysparm_query", "sysparm_sys_id", "sysparm_view"] { body[name] = nil }
            let display = request.queryItems.first(where: { $0.name == "displayvalue" })?.value ?? "false"
            let records: [JSONValue]
            switch action {
            case "getRecords":
                records = try list(definition, query, request, access, display: display, fields: fields).map {
                    .object(rendered($0, definition, display: display))
                }
            case "getKeys":
                records = try list(definition, query, request, access, display: "false").compactMap { $0["sys_id"] }
            case "get":
                guard let sysID, !sysID.isEmpty else { throw Failure("Cannot get without sysparm_sys_id") }
                records = try record(definition, sysID, request, access, display: display, fields: fields).map {
                    [.object(rendered($0, definition, display: display))]
                } ?? []
            case "insert", "insertMultiple":
                let rows: [JSONValue]
                if case .array(let given) = body["records"] ?? .null { rows = given } else { rows = [.object(body)] }
                records = rows.map { row in
                    guard case .object(let fields) = row else {
                        return Self.failed(nil, "Invalid record", reason: "each record is a JSON object")
                    }
                    return write(
                        "POST", "/api/now/table/\(definition.name)", fields, sysID: fields["sys_id"]?.string, request,
                        access)
                }
            case "update":
                guard !query.isEmpty else { throw Failure("Cannot update with empty sysparm_query") }
                records = try list(definition, query, request, access, display: "false").map { found in
                    let sysID = found["sys_id"]?.string
                    return write("PATCH", path(definition, sysID), body, sysID: sysID, request, access)
                }
            case "deleteRecord":
                guard let sysID, !sysID.isEmpty else { throw Failure("Cannot delete without sysparm_sys_id") }
                records = [try delete(definition, sysID, request, access)]
            default:
                guard !query.isEmpty else { throw Failure("Cannot delete with empty sysparm_query") }
                records = try list(definition, query, request, access, display: "false").map { found in
                    try delete(definition, found["sys_id"]?.string ?? "", request, access)
                }
            }
            let answer: JSONValue = ["records": .array(records)]
            return NowHTTPResponse(statusCode: 200, headers: tables.jsonHeaders, body: answer.jsonData())
        } catch let failure as Failure {
            return failure.response
        } catch let error as TableAPIError {
            return Failure(error).response
        } catch {
            tables.log("local instance: \(request.method) \(request.path) failed: \(error)")
            return Failure(TableAPIError.internalFailure).response
        }
    }

    // MARK: - Through the Table API

    private func path(_ table: TableDefinition, _ sysID: String?) -> String {
        "/api/now/table/\(table.name)/" + NowHTTPRequest.percentEncodedPathSegment(sysID ?? "")
    }

    /// The Table API's parameters for `displayvalue` `display` and, when given, only `fields`.
    private static func parameters(display: String, fields: [String]? = nil) -> [URLQueryItem] {
        [
            URLQueryItem(name: "sysparm_exclude_reference_link", value: "true"),
            URLQueryItem(name: "sysparm_display_value", value: display == "true" || display == "all" ? display : "false"),
        ] + (fields.map { [URLQueryItem(name: "sysparm_fields", value: $0.joined(separator: ","))] } ?? [])
    }

    /// The records `query` selects, at most `sysparm_record_count` (up to ``rowLimit``), with `fields` only when
    /// given.
    private func list(
        _ table: TableDefinition, _ query: String, _ request: NowHTTPRequest, _ access: AccessPolicy.Access,
        display: String, fields: [String]? = nil
    ) throws -> [JSONObject] {
        let asked = request.queryItems.first(where: { $0.name == "sysparm_record_count" })?.value.flatMap { Int($0) }
        let limit = min(max(asked ?? Self.rowLimit, 1), Self.rowLimit)
        let found = try TableAPIHandler.result(
            of: try tables.subRequest(
                "GET", "/api/now/table/\(table.name)",
                Self.parameters(display: display, fields: fields) + [
                    URLQueryItem(name: "sysparm_query", value: query),
                    URLQueryItem(name: "sysparm_limit", value: String(limit)),
                ], for: request, as: access))
        return found.array?.compactMap(\.object) ?? []
    }

    /// The record `sysID`, with `fields` only when given; nil when the user may not read it or it is not there.
    private func record(
        _ table: TableDefinition, _ sysID: String, _ request: NowHTTPRequest, _ access: AccessPolicy.Access,
        display: String, fields: [String]? = nil
    ) throws -> JSONObject? {
        do {
            return try TableAPIHandler.result(
                of: try tables.subRequest(
                    "GET", path(table, sysID), Self.parameters(display: display, fields: fields), for: request,
                    as: access)
            ).object
        } catch let error as TableAPIError where error.status == 404 {
            return nil
        }
    }

    /// A create or update of one record: the record as written with `__status`, or its failure.
    private func write(
        _ method: String, _ path: String, _ fields: JSONObject, sysID: String?, _ request: NowHTTPRequest,
        _ access: AccessPolicy.Access
    ) -> JSONValue {
        do {
            let written = try TableAPIHandler.result(
                of: try tables.subRequest(
                    method, path, Self.parameters(display: "false"), for: request, as: access, body: .object(fields)))
            var record = written.object ?? [:]
            record["__status"] = "success"
            return .object(record)
        } catch let error as TableAPIError {
            return Self.failed(sysID, error.message, reason: error.detail)
        } catch {
            tables.log("local instance: JSONv2 \(method) \(path) failed: \(error)")
            return Self.failed(sysID, TableAPIError.internalFailure.message, reason: nil)
        }
    }

    /// A delete of one record: the record as it was, with `__status`, or its failure.
    private func delete(
        _ table: TableDefinition, _ sysID: String, _ request: NowHTTPRequest, _ access: AccessPolicy.Access
    ) throws -> JSONValue {
        do {
            let before = try TableAPIHandler.result(
                of: try tables.subRequest("GET", path(table, sysID), Self.parameters(display: "false"), for: request, as: access))
            _ = try tables.subRequest("DELETE", path(table, sysID), for: request, as: access)
            var record = before.object ?? [:]
            record["__status"] = "success"
            return .object(record)
        } catch let error as TableAPIError {
            return Self.failed(sysID, error.message, reason: error.detail)
        }
    }

    /// A record's failure: `{"sys_id"?, "__status": "failure", "__error": {"message", "reason"}}`.
    private static func failed(_ sysID: String?, _ message: String, reason: String?) -> JSONValue {
        var record = JSONObject()
        if let sysID, !sysID.isEmpty { record["sys_id"] = .string(sysID) }
        record["__status"] = "failure"
        record["__error"] = ["message": .string(message), "reason": reason.map(JSONValue.string) ?? .null]
        return .object(record)
    }

    /// A record as JSONv2 answers it: each field's value as text; with `displayvalue=all`, each reference's display
    /// value beside it as `dv_<field>`.
    private func rendered(_ record: JSONObject, _ table: TableDefinition, display: String) -> JSONObject {
        guard display == DisplayValueMode.all.rawValue, let fields = try? NowRecord(.object(record)) else { return record }
        var result = JSONObject()
        for (name, member) in record {
            guard case .object = member, let value = fields.value(name) else {
                result[name] = member
                continue
            }
            result[name] = .string(value)
            if case .reference = table.field(name)?.type { result["dv_" + name] = .string(fields.displayValue(name) ?? "") }
        }
        return result
    }
}
