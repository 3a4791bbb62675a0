import Foundation
import NowData
import Synchronization

/// The transport of a dry run: it wraps the instance's own, so that NowData prepares every request as in a real
/// run, and the writes it keeps are exactly the requests NowData would send.
///
/// - Reads (`GET`, `HEAD`) and the OAuth token request go to the instance, except a read of a stand-in.
/// - A write (`POST`, `PATCH`, `PUT`, `DELETE`) is not sent. It is kept (without its headers, which hold the
///   credentials) and answered with a stand-in, unless the instance's answer to a read shows that the write would
///   fail: then that answer is returned, and the write is not kept.
///   - `POST` (a create): a stand-in record made of the table's fields, all empty (read from one record of the
///     table), and the fields sent, with the sys_id sent (see ``nextStandInSysID()``). Later reads of it get the
///     stand-in.
///   - `PATCH`, `PUT` (an update): the record (the stand-in, or the instance's record as it reads it) with the
///     fields sent; a stand-in keeps the change.
///   - `DELETE`: `204`; a stand-in is gone. A record the instance does not have fails as it would.
///   - `POST /api/now/attachment/file` (an upload): kept without its bytes (their size, type and SHA-256 hash say
///     what they are) and answered with stand-in metadata, once the record it attaches to is found; a download
///     of the stand-in gets the bytes, and `sys_attachment` has it as a record.
final class DryRunTransport: NowTransport {
    private let instance: any NowTransport
    private let state = Mutex(State())

    private struct State {
        var writes: [KeptWrite] = []
        /// The stand-in records, by the path of the record.
        var standIns: [String: JSONObject] = [:]
        /// The bytes of the stand-in attachments, by the path of their `/file`.
        var standInFiles: [String: Data] = [:]
        /// The fields of a record of each table, all empty, by the path of the table.
        var shapes: [String: JSONObject] = [:]
        var standInCount = 0
    }

    /// A write not sent, and the record it would change or delete as it was before (nil for a create).
    struct KeptWrite {
        var request: NowHTTPRequest
        var before: JSONObject?
        /// For an attachment upload, kept without its bytes: their size, type and hash.
        var content: String?

        /// The table a Table API write is to (`/api/now/table/incident/...` → `incident`); nil for another API's.
        var table: String? {
            let parts = request.path.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count > 4, parts[1] == "api", parts[2] == "now", parts[3] == "table" else { return nil }
            return String(parts[4]).removingPercentEncoding
        }
    }

    /// The path of the OAuth token endpoint: a `POST` that only asks for a token.
    private static let tokenPath = "/oauth_token.do"

    /// A dry run over `instance`.
    init(wrapping instance: any NowTransport) {
        self.instance = instance
    }

    /// A new stand-in sys_id for a record a dry run creates: `dry-run-1`, `dry-run-2`, ...
    func nextStandInSysID() -> String {
        state.withLock { state in
            state.standInCount += 1
            return "dry-run-\(state.standInCount)"
        }
    }

    /// A stand-in record of `table` holding `fields` and a new stand-in sys_id, which later reads and writes of it
    /// get, as a create's: what a dry run has for the records an API beside the Table API would create (a catalog
    /// order's request and requested item). It keeps no write: the API's own request is the write kept.
    func standIn(_ table: String, _ fields: JSONObject) -> JSONObject {
        var record = fields
        let sysID = nextStandInSysID()
        record["sys_id"] = .string(sysID)
        let path = "/api/now/table/\(table)/" + NowHTTPRequest.percentEncodedPathSegment(sysID)
        state.withLock { [record] in $0.standIns[path] = record }
        return record
    }

    /// Whether `sysID` is the sys_id of a stand-in record that a dry run created and did not delete.
    func isStandIn(_ sysID: String) -> Bool {
        state.withLock { state in
            state.standIns.values.contains { $0["sys_id"]?.string == sysID }
        }
    }

    /// The writes kept since the last call, in the order they came.
    func takeWrites() -> [KeptWrite] {
        state.withLock { state in
            defer { state.writes = [] }
            return state.writes
        }
    }

    func send(_ request: NowHTTPRequest) async throws -> NowHTTPResponse {
        let method = request.method.uppercased()
        if method == "GET" || method == "HEAD" {
            if let record = state.withLock({ $0.standIns[request.path] }) { return Self.answer(200, record) }
            if let file = standInFile(request.path) { return file }
            if request.path == Self.attachmentListPath { return try await attachmentList(request) }
            return try await instance.send(request)
        }
        if request.path == Self.tokenPath { return try await instance.send(request) }
        if method == "POST", request.path == Self.attachmentUploadPath { return try await attached(request) }
        let fields = request.body.flatMap { try? JSONValue(json: $0) }?.object ?? JSONObject()
        let answer: NowHTTPResponse
        var before: JSONObject?
        switch method {
        case "POST": answer = try await created(request, fields)
        case "DELETE": (answer, before) = try await deleted(request)
        default: (answer, before) = try await changed(request, fields)
        }
        if (200..<300).contains(answer.statusCode) {
            var kept = request
            kept.headers = HTTPHeaders()
            state.withLock { [before] in $0.writes.append(KeptWrite(request: kept, before: before)) }
        }
        return answer
    }

    private func created(_ request: NowHTTPRequest, _ fields: JSONObject) async throws -> NowHTTPResponse {
        var record: JSONObject
        if let shape = state.withLock({ $0.shapes[request.path] }) {
            record = shape
        } else {
            let page = try await read(
                request, path: request.path, queryItems: [URLQueryItem(name: "sysparm_limit", value: "1")])
            guard let result = page.result else { return page.response }
            record = JSONObject(result.array?.first?.object?.keys.map { ($0, JSONValue.string("")) } ?? [])
            state.withLock { [record] in $0.shapes[request.path] = record }
        }
        for (name, value) in fields { record[name] = value }
        let sysID = fields["sys_id"]?.string ?? nextStandInSysID()
        record["sys_id"] = .string(sysID)
        // Later requests name the record by its path, where the sys_id is percent-encoded.
        let path = request.path + "/" + NowHTTPRequest.percentEncodedPathSegment(sysID)
        state.withLock { [record] in $0.standIns[path] = record }
        return Self.answer(201, record)
    }

    private func changed(_ request: NowHTTPRequest, _ fields: JSONObject) async throws -> (
        NowHTTPResponse, JSONObject?
    ) {
        var record: JSONObject
        let standIn = state.withLock { $0.standIns[request.path] }
        if let standIn {
            record = standIn
        } else {
            let found = try await read(request, path: request.path, queryItems: [])
            guard let result = found.result else { return (found.response, nil) }
            record = result.object ?? JSONObject()
        }
        let before = record
        for (name, value) in fields { record[name] = value }
        if standIn != nil { state.withLock { [record] in $0.standIns[request.path] = record } }
        return (Self.answer(200, record), before)
    }

    private func deleted(_ request: NowHTTPRequest) async throws -> (NowHTTPResponse, JSONObject?) {
        let attachmentTable = "/api/now/table/sys_attachment/"
        if let removed = state.withLock({ state -> JSONObject? in
            let removed = state.standIns.removeValue(forKey: request.path)
            if removed != nil, request.path.hasPrefix(attachmentTable) {
                // A stand-in attachment goes from the Attachment API's paths too.
                let path = "/api/now/attachment/" + request.path.dropFirst(attachmentTable.count)
                state.standIns[path] = nil
                state.standInFiles[path + "/file"] = nil
            }
            return removed
        }) {
            return (NowHTTPResponse(statusCode: 204), removed)
        }
        let found = try await read(request, path: request.path, queryItems: [])
        guard let result = found.result else { return (found.response, nil) }
        return (NowHTTPResponse(statusCode: 204), result.object)
    }

    /// The path of the Attachment API's list of metadata.
    private static let attachmentListPath = "/api/now/attachment"

    /// A list of attachments: the stand-ins that match the `field=value` conditions of its `sysparm_query` (newest
    /// first), then the instance's.
    private func attachmentList(_ request: NowHTTPRequest) async throws -> NowHTTPResponse {
        let text = request.queryItems.first { $0.name == "sysparm_query" }?.value ?? ""
        // The runner's own query: one group of `field=value` clauses (see JobExecution's attachmentQuery).
        let clauses = (try? EncodedQuery.parse(text))?.groups.first?.clauses ?? []
        let conditions = clauses.compactMap { clause -> (String, String)? in
            guard clause.terms.count == 1, case .condition(let condition) = clause.terms[0] else { return nil }
            switch condition.op {
            case .equals: return (condition.field, condition.value)
            case .isEmpty: return (condition.field, "")
            default: return nil
            }
        }
        let standIns = state.withLock { state in
            state.standInFiles.keys.sorted().reversed().compactMap { path in
                state.standIns[String(path.dropLast("/file".count))]
            }
        }.filter { metadata in conditions.allSatisfy { metadata[$0.0]?.string == $0.1 } }
        guard !standIns.isEmpty else { return try await instance.send(request) }
        let response = try await instance.send(request)
        guard (200..<300).contains(response.statusCode) else { return response }
        let found = (try? JSONValue(json: response.body))?["result"]?.array ?? []
        let all = standIns.map(JSONValue.object) + found
        return NowHTTPResponse(
            statusCode: 200, headers: ["Content-Type": "application/json", "X-Total-Count": String(all.count)],
            body: JSONValue.object(["result": .array(all)]).jsonData())
    }

    /// The path of the Attachment API's upload of raw bytes.
    private static let attachmentUploadPath = "/api/now/attachment/file"

    /// An attachment upload: kept (its bytes described, not held) and answered with stand-in metadata, whose file
    /// later downloads get, once the record it attaches to is found (a stand-in, or the instance's).
    private func attached(_ request: NowHTTPRequest) async throws -> NowHTTPResponse {
        func item(_ name: String) -> String { request.queryItems.first { $0.name == name }?.value ?? "" }
        let recordPath =
            "/api/now/table/" + NowHTTPRequest.percentEncodedPathSegment(item("table_name")) + "/"
            + NowHTTPRequest.percentEncodedPathSegment(item("table_sys_id"))
        if state.withLock({ $0.standIns[recordPath] }) == nil {
            let found = try await read(request, path: recordPath, queryItems: [])
            guard found.result != nil else { return found.response }
        }
        let data = request.body ?? Data()
        var hasher = SHA256()
        hasher.update(data)
        let hash = hasher.finalizeHex()
        let contentType = request.headers["Content-Type"] ?? "application/octet-stream"
        let sysID = nextStandInSysID()
        let metadata: JSONObject = [
            "sys_id": .string(sysID), "file_name": .string(item("file_name")), "content_type": .string(contentType),
            "size_bytes": .string(String(data.count)), "hash": .string(hash), "table_name": .string(item("table_name")),
            "table_sys_id": .string(item("table_sys_id")),
        ]
        let path = "/api/now/attachment/" + NowHTTPRequest.percentEncodedPathSegment(sysID)
        var kept = request
        kept.headers = HTTPHeaders()
        kept.body = nil
        let content = "\(data.count) byte\(data.count == 1 ? "" : "s") \(contentType), SHA-256 \(hash)"
        state.withLock { state in
            state.standIns[path] = metadata
            state.standIns["/api/now/table/sys_attachment/" + NowHTTPRequest.percentEncodedPathSegment(sysID)] = metadata
            state.standInFiles[path + "/file"] = data
            state.writes.append(KeptWrite(request: kept, before: nil, content: content))
        }
        return Self.answer(201, metadata)
    }

    /// The answer to a download of a stand-in attachment: its bytes, with its metadata in `X-Attachment-Metadata`.
    private func standInFile(_ path: String) -> NowHTTPResponse? {
        let found = state.withLock { state -> (Data, JSONObject)? in
            guard path.hasSuffix("/file"), let data = state.standInFiles[path],
                let metadata = state.standIns[String(path.dropLast("/file".count))]
            else { return nil }
            return (data, metadata)
        }
        guard let (data, metadata) = found else { return nil }
        var headers = HTTPHeaders()
        headers["Content-Type"] = metadata["content_type"]?.string ?? "application/octet-stream"
        headers[NowAttachment.attachmentMetadataHeaderKey] = JSONValue.object(metadata).jsonText()
        return NowHTTPResponse(statusCode: 200, headers: headers, body: data)
    }

    /// A GET of `path` with the write's credentials: the instance's answer, and its `result` when it is a success
    /// (when it is not, the write would fail the same way, and the answer is the write's).
    private func read(_ write: NowHTTPRequest, path: String, queryItems: [URLQueryItem]) async throws -> (
        response: NowHTTPResponse, result: JSONValue?
    ) {
        var headers = write.headers
        headers["Content-Type"] = nil
        let response = try await instance.send(
            NowHTTPRequest(method: "GET", path: path, queryItems: queryItems, headers: headers))
        guard (200..<300).contains(response.statusCode) else { return (response, nil) }
        return (response, (try? JSONValue(json: response.body))?["result"] ?? .null)
    }

    /// A JSON answer `{"result": record}`.
    private static func answer(_ status: Int, _ record: JSONObject) -> NowHTTPResponse {
        NowHTTPResponse(
            statusCode: status, headers: ["Content-Type": "application/json"],
            body: JSONValue.object(["result": .object(record)]).jsonData())
    }
}
