import Foundation
import NowData

/// The Attachment API over the store and ``AttachmentContent``: `POST /api/now/attachment/file` (raw body),
/// `POST /api/now/attachment/upload` (multipart/form-data), `GET /api/now/attachment` (a list, with the Table
/// API's `sysparm_query`, `sysparm_limit`, `sysparm_offset`, `X-Total-Count` and `Link`),
/// `GET /api/now/attachment/{sys_id}` (metadata), `GET /api/now/attachment/{sys_id}/file` (the bytes, with the
/// metadata as JSON in `X-Attachment-Metadata`) and `DELETE /api/now/attachment/{sys_id}` (204).
///
/// An attachment follows its record (``AccessPolicy``): reading one (list, metadata, file) needs read access to
/// the record's table, adding or deleting one write access to it. A download is sent to be saved, never shown as
/// a page of the instance (`Content-Disposition: attachment`, `X-Content-Type-Options: nosniff`,
/// `Content-Security-Policy: sandbox`).
struct AttachmentAPIHandler: Sendable {
    let tables: TableAPIHandler
    let content: AttachmentContent
    /// `com.glide.attachment.max_size`, in bytes.
    let maxSize: Int

    private var table: TableDefinition { TableDictionary.sysAttachment }

    /// The segments of the path after `/api/now/attachment` (or `/api/now/v1/attachment`); nil when the path is
    /// not the Attachment API's.
    static func route(_ path: String) -> [String]? {
        var parts = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard parts.count >= 3, parts[0] == "api", parts[1] == "now" else { return nil }
        parts.removeFirst(2)
        if parts[0] == "v1" { parts.removeFirst() }
        guard parts.first == "attachment", parts.count <= 3 else { return nil }
        return Array(parts.dropFirst())
    }

    /// The longest `file_name`, in bytes of UTF-8 (a longer one would not fit the download's
    /// `X-Attachment-Metadata` header of most clients).
    static let maximumFileNameLength = 255

    /// The response to a request of the user `access` is for, whose path segments after `attachment` are
    /// `segments`.
    func handle(_ request: NowHTTPRequest, segments: [String], as access: AccessPolicy.Access) throws(TableAPIError)
        -> NowHTTPResponse
    {
        let method = (request.headers.value(named: "X-HTTP-Method-Override") ?? request.method).uppercased()
        do {
            switch (method, segments.count) {
            case ("GET", 0): return try list(request, access)
            case ("POST", 1) where segments[0] == "file": return try uploadRaw(request, access)
            case ("POST", 1) where segments[0] == "upload": return try uploadMultipart(request, access)
            case ("GET", 1): return try metadata(segments[0], request, access)
            case ("GET", 2) where segments[1] == "file": return try file(segments[0], request, access)
            case ("DELETE", 1): return try delete(segments[0], access)
            case (_, 0), (_, 1): throw TableAPIError.methodNotSupported(method)
            case (_, 2) where segments[1] == "file": throw TableAPIError.methodNotSupported(method)
            default: throw TableAPIError.unknownResource
            }
        } catch let error as TableAPIError {
            throw error
        } catch {
            tables.log("local instance: \(method) \(request.path) failed: \(error)")
            throw .internalFailure
        }
    }

    // MARK: - Upload

    private func uploadRaw(_ request: NowHTTPRequest, _ access: AccessPolicy.Access) throws -> NowHTTPResponse {
        let tableName = try parameter("table_name", request)
        let recordID = try parameter("table_sys_id", request)
        let fileName = try parameter("file_name", request)
        let contentType = request.headers.value(named: "Content-Type") ?? "application/octet-stream"
        let record = try create(
            NewAttachment(
                tableName: tableName, recordID: recordID, fileName: fileName, contentType: contentType,
                encryptionContext: request.queryValue("encryption_context"), bytes: bytes(of: request)),
            access)
        return created(record, request)
    }

    /// Every file part becomes an attachment of the record the `table_name` and `table_sys_id` fields name; the
    /// response holds the first. The form was received by the HTTP listener as it arrived (and is taken from
    /// ``AttachmentContent``), or is received here from the request's body or body file, a chunk at a time.
    private func uploadMultipart(_ request: NowHTTPRequest, _ access: AccessPolicy.Access) throws -> NowHTTPResponse {
        let form = try received(request)
        // The files not made attachments (a refused upload) go with the request.
        defer { form.removeFiles() }
        guard let tableName = form.field("table_name"), !tableName.isEmpty else {
            throw TableAPIError.missingAttachmentParameter("table_name")
        }
        guard let recordID = form.field("table_sys_id"), !recordID.isEmpty else {
            throw TableAPIError.missingAttachmentParameter("table_sys_id")
        }
        guard !form.files.isEmpty else { throw TableAPIError.missingFilePart }
        var first: StoredRecord?
        for part in form.files {
            let record = try create(
                NewAttachment(
                    tableName: tableName, recordID: recordID, fileName: part.fileName,
                    contentType: part.contentType ?? "application/octet-stream",
                    encryptionContext: form.field("encryption_context"),
                    bytes: .spooled(part.staged, digest: part.hash)),
                access)
            if first == nil { first = record }
        }
        guard let first else { throw TableAPIError.missingFilePart }
        return created(first, request)
    }

    /// The form of a multipart upload: the one the listener received, or the request's body (or body file) fed
    /// to an ``AttachmentForm`` here.
    private func received(_ request: NowHTTPRequest) throws -> AttachmentForm.Received {
        if let token = request.headers.value(named: BodySpooling.receivedBodyHeader),
            let form = content.takeForm(token)
        {
            return form
        }
        guard let form = formReceiver(contentType: request.headers.value(named: "Content-Type") ?? "") else {
            throw TableAPIError.missingFilePart
        }
        if let file = request.bodyFile {
            let input = try FileHandle(forReadingFrom: file)
            defer { try? input.close() }
            while form.failure == nil, let chunk = try input.read(upToCount: AttachmentContent.chunkSize),
                !chunk.isEmpty
            {
                chunk.withUnsafeBytes { form.receive($0) }
            }
        } else {
            (request.body ?? Data()).withUnsafeBytes { form.receive($0) }
        }
        return try form.finish()
    }

    /// A form to receive a multipart upload whose `Content-Type` is `contentType` into; nil when it is not
    /// multipart/form-data with a boundary.
    private func formReceiver(contentType: String) -> AttachmentForm? {
        AttachmentForm(contentType: contentType, content: content, maxSize: maxSize)
    }

    /// What an upload says about one file.
    private struct NewAttachment {
        var tableName: String
        var recordID: String
        var fileName: String
        var contentType: String
        var encryptionContext: String?
        var bytes: Bytes
    }

    /// Where an upload's bytes are.
    private enum Bytes {
        /// In memory.
        case data(Data)
        /// In a file of the caller's, copied.
        case file(URL)
        /// In a file the HTTP listener spooled the body to, with the digest it computed: renamed, not copied.
        case spooled(URL, digest: String)
    }

    /// The bytes of a raw upload: its spooled file, its body file or its body.
    private func bytes(of request: NowHTTPRequest) -> Bytes {
        guard let file = request.bodyFile else { return .data(request.body ?? Data()) }
        if let digest = request.headers.value(named: BodySpooling.digestHeader), content.isSpoolFile(file) {
            return .spooled(file, digest: digest)
        }
        return .file(file)
    }

    /// Whether a request is a raw upload (`POST /api/now/attachment/file`), whose body may come in a file.
    static func isRawUpload(method: String, path: String) -> Bool {
        method.uppercased() == "POST" && route(path) == ["file"]
    }

    /// Whether a request is a multipart upload (`POST /api/now/attachment/upload`), whose body may come in a
    /// file.
    static func isMultipartUpload(method: String, path: String) -> Bool {
        method.uppercased() == "POST" && route(path) == ["upload"]
    }

    /// The file of a raw upload's body to spool to, for the HTTP listener: nil for every other request.
    func spoolFile(method: String, path: String) -> URL? {
        Self.isRawUpload(method: method, path: path) ? content.spoolFile() : nil
    }

    /// The form to receive a multipart upload's body into as it arrives, for the HTTP listener: nil for every
    /// other request, and for a body that is not multipart/form-data (it is held, and refused by the handler).
    func receiver(method: String, path: String, contentType: String) -> AttachmentForm? {
        Self.isMultipartUpload(method: method, path: path) ? formReceiver(contentType: contentType) : nil
    }

    /// Checks the name and the record (which the user must be able to read and write), stages the bytes, inserts
    /// the metadata and commits the file; returns the stored record.
    private func create(_ new: NewAttachment, _ access: AccessPolicy.Access) throws -> StoredRecord {
        guard new.fileName.utf8.count <= Self.maximumFileNameLength else {
            throw TableAPIError.fileNameTooLong(new.fileName.utf8.count, limit: Self.maximumFileNameLength)
        }
        guard new.tableName != table.name, let target = tables.dictionary.table(new.tableName) else {
            throw TableAPIError.invalidAttachmentTable(new.tableName)
        }
        guard try access.mayRead(target),
            try tables.database.read({ db in try tables.store.fetch(target, sysID: new.recordID, db) != nil })
        else {
            throw TableAPIError.missingAttachmentRecord(table: new.tableName, sysID: new.recordID)
        }
        try access.authorizeWrite(target, method: "POST")
        let userName = access.userName
        let sysID = NowTableService.makeSysID()
        let staged: (file: URL, size: Int, hash: String)
        switch new.bytes {
        case .data(let data):
            guard data.count <= maxSize else { throw TableAPIError.attachmentTooLarge(limit: maxSize) }
            staged = try content.stage(data, for: sysID)
        case .file(let file): staged = try content.stage(copying: file, for: sysID)
        case .spooled(let file, let digest): staged = try content.stage(spooled: file, digest: digest, for: sysID)
        }
        do {
            guard staged.size <= maxSize else { throw TableAPIError.attachmentTooLarge(limit: maxSize) }
            let timestamp = Timestamp.string(tables.now())
            var record: StoredRecord = [
                "sys_id": sysID, "file_name": new.fileName, "content_type": new.contentType,
                "size_bytes": String(staged.size), "size_compressed": String(staged.size), "compressed": "false",
                "hash": staged.hash, "table_name": new.tableName, "table_sys_id": new.recordID,
                "encryption_context": new.encryptionContext ?? "", "state": "available",
                "chunk_size_bytes": String(AttachmentContent.chunkSize), "sys_created_on": timestamp,
                "sys_created_by": userName, "sys_updated_on": timestamp, "sys_updated_by": userName,
                "sys_mod_count": "0", "sys_class_name": table.name,
            ]
            try tables.database.write { db in
                try tables.store.insert(table, record, db)
                try tables.audit.recordCreation(table, record, user: userName, at: timestamp, db)
                try content.commit(staged.file, for: sysID)
            }
            record = try tables.database.read { db in try tables.store.fetch(table, sysID: sysID, db) } ?? record
            return record
        } catch {
            try? FileManager.default.removeItem(at: staged.file)
            throw error
        }
    }

    private func created(_ record: StoredRecord, _ request: NowHTTPRequest) -> NowHTTPResponse {
        let sysID = record["sys_id"] ?? ""
        var headers = tables.jsonHeaders
        headers.add(name: "Location", value: "\(request.baseURL)/api/now/v1/attachment/\(sysID)/file")
        return NowHTTPResponse(
            statusCode: 201, headers: headers,
            body: JSONValue.object(["result": .object(metadata(record, request))]).jsonData())
    }

    private func parameter(_ name: String, _ request: NowHTTPRequest) throws(TableAPIError) -> String {
        guard let value = request.queryValue(name), !value.isEmpty else {
            throw .missingAttachmentParameter(name)
        }
        return value
    }

    // MARK: - Read and delete

    /// The Table API's list of `sys_attachment`, each record with its `download_link`.
    private func list(_ request: NowHTTPRequest, _ access: AccessPolicy.Access) throws -> NowHTTPResponse {
        var tableRequest = NowHTTPRequest(
            method: "GET", path: "/api/now/table/" + table.name, queryItems: request.queryItems,
            headers: request.headers)
        tableRequest.headers["X-HTTP-Method-Override"] = nil
        guard var routed = try TableAPIRequest(tableRequest) else { throw TableAPIError.unknownResource }
        routed.request.path = request.path
        let response = try tables.handle(routed, as: access)
        guard case .object(var envelope) = try JSONValue(json: response.body),
            case .array(let records) = envelope["result"] ?? .null
        else { return response }
        let base = request.baseURL
        envelope["result"] = .array(
            records.map { value in
                guard case .object(var record) = value, case .string(let sysID) = record["sys_id"] ?? .null else {
                    return value
                }
                if record["sys_tags"] == nil { record["sys_tags"] = .string("") }
                record["download_link"] = .string("\(base)/api/now/attachment/\(sysID)/file")
                return .object(record)
            })
        return NowHTTPResponse(
            statusCode: response.statusCode, headers: response.headers, body: JSONValue.object(envelope).jsonData())
    }

    /// The attachment `sysID`, when the user may read its record: 404 otherwise, as for no attachment.
    private func stored(_ sysID: String, _ access: AccessPolicy.Access) throws -> StoredRecord {
        guard let record = try tables.database.read({ db in try tables.store.fetch(table, sysID: sysID, db) }),
            try access.mayRead(table, record: record)
        else {
            throw TableAPIError.noAttachment
        }
        return record
    }

    private func metadata(_ sysID: String, _ request: NowHTTPRequest, _ access: AccessPolicy.Access) throws
        -> NowHTTPResponse
    {
        let record = try stored(sysID, access)
        return NowHTTPResponse(
            statusCode: 200, headers: tables.jsonHeaders,
            body: JSONValue.object(["result": .object(metadata(record, request))]).jsonData())
    }

    private func file(_ sysID: String, _ request: NowHTTPRequest, _ access: AccessPolicy.Access) throws
        -> NowHTTPResponse
    {
        let record = try stored(sysID, access)
        let file = content.file(sysID)
        guard FileManager.default.fileExists(atPath: file.path) else { throw TableAPIError.noAttachment }
        // Saved, never shown as a page of the instance: an HTML or SVG file runs no script on its origin.
        let headers: HTTPHeaders = [
            "Content-Type": record["content_type"].flatMap { $0.isEmpty ? nil : $0 } ?? "application/octet-stream",
            "Content-Disposition": "attachment; filename*=UTF-8''" + WebForm.encode(record["file_name"] ?? ""),
            "X-Content-Type-Options": "nosniff",
            "Content-Security-Policy": "sandbox",
            "X-Attachment-Metadata": JSONValue.object(metadata(record, request)).jsonText(),
        ]
        // Sent from the file: the listener streams it, the in-process transport copies or reads it.
        var response = NowHTTPResponse(statusCode: 200, headers: headers)
        response.bodyFile = file
        return response
    }

    private func delete(_ sysID: String, _ access: AccessPolicy.Access) throws -> NowHTTPResponse {
        let record = try stored(sysID, access)
        guard let target = record["table_name"].flatMap(tables.dictionary.table) else {
            throw AccessPolicy.Access.refusal(method: "DELETE")
        }
        try access.authorizeWrite(target, method: "DELETE")
        let deleted = try tables.database.write { db in
            let deleted = try tables.deleteRecord(table, sysID: sysID, by: access.userName, db)
            try content.sweep(db)
            return deleted
        }
        guard deleted else { throw TableAPIError.noAttachment }
        return NowHTTPResponse(statusCode: 204)
    }

    /// The metadata of an attachment as the Attachment API renders it: every field of `sys_attachment` as text,
    /// and its `download_link`.
    private func metadata(_ record: StoredRecord, _ request: NowHTTPRequest) -> JSONObject {
        var object = JSONObject()
        for field in table.fields { object[field.name] = .string(record[field.name] ?? "") }
        object["sys_tags"] = .string("")
        object["download_link"] = .string(
            "\(request.baseURL)/api/now/attachment/\(record["sys_id"] ?? "")/file")
        return object
    }

}
