import Foundation

extension NowTableService {
    func prepareCreate<Model: SysIdentifiableModel>(
        _ model: Model, in tableName: String, coder: Coder, writeOptions: FieldWriteOptions?,
        readConfiguration: FieldReadConfiguration?
    ) throws -> PreparedRequest {
        let fields = TableRequest.strippingSysID(try TableRequest.fields(of: model, coder: coder))
        return try prepareInsert(
            fields, sysId: NowTableService.makeSysID(), in: tableName, writeOptions: writeOptions,
            readConfiguration: readConfiguration)
    }

    func prepareCreateRecord(
        _ fields: [FieldName: FieldValue], in tableName: String, writeOptions: FieldWriteOptions?,
        readConfiguration: FieldReadConfiguration?
    ) throws -> PreparedRequest {
        let given = fields["sys_id"]?.stringValue ?? ""
        return try prepareInsert(
            TableRequest.fields(fields), sysId: given.isEmpty ? NowTableService.makeSysID() : given,
            in: tableName, writeOptions: writeOptions, readConfiguration: readConfiguration)
    }

    /// A POST of `fields` with `sys_id` set to `sysId`, and the GET that verifies it after a failure.
    private func prepareInsert(
        _ fields: JSONObject, sysId: SysID, in tableName: String, writeOptions: FieldWriteOptions?,
        readConfiguration: FieldReadConfiguration?
    ) throws -> PreparedRequest {
        let path = try TableRequest.tablePath(tableName)
        let verification = NowHTTPRequest(
            method: "GET", path: try TableRequest.recordPath(tableName, sysId),
            queryItems: readConfiguration?.queryItems ?? [])
        var fields = fields
        fields["sys_id"] = .string(sysId)
        let request = NowHTTPRequest(
            method: "POST", path: path, queryItems: TableRequest.writeItems(writeOptions, readConfiguration),
            body: TableRequest.jsonBody(fields))
        return PreparedRequest(request: request, mode: .create(verification: verification))
    }

    func prepareDelete(sysId: SysID, from tableName: String) throws -> PreparedRequest {
        PreparedRequest(
            request: NowHTTPRequest(method: "DELETE", path: try TableRequest.recordPath(tableName, sysId)),
            mode: .delete)
    }

    /// With a sys_id, the GET of that record (only the read configuration applies); without, the GET of the
    /// records the configuration selects.
    func prepareModel(with sysId: SysID?, from tableName: String, configuration: FetchConfiguration?) throws
        -> PreparedRequest
    {
        guard let sysId else { return try prepareRecords(from: tableName, configuration: configuration) }
        return try prepareRecord(with: sysId, from: tableName, configuration: configuration?.readConfiguration)
    }

    func prepareRecord(with sysId: SysID, from tableName: String, configuration: FieldReadConfiguration?) throws
        -> PreparedRequest
    {
        PreparedRequest(
            request: NowHTTPRequest(
                method: "GET", path: try TableRequest.recordPath(tableName, sysId),
                queryItems: configuration?.queryItems ?? []),
            mode: .idempotent)
    }

    func prepareRecords(from tableName: String, configuration: FetchConfiguration?) throws -> PreparedRequest {
        let path = try TableRequest.tablePath(tableName)
        return PreparedRequest(
            request: NowHTTPRequest(method: "GET", path: path, queryItems: configuration?.queryItems ?? []),
            mode: .idempotent)
    }

    func prepareUpdate<Model: SysIdentifiableModel>(
        _ model: Model, in tableName: String, coder: Coder, writeOptions: FieldWriteOptions?,
        readConfiguration: FieldReadConfiguration?
    ) throws -> PreparedRequest {
        let path = try TableRequest.recordPath(tableName, model.sysId)
        return try preparePatch(
            try TableRequest.fields(of: model, coder: coder), at: path, writeOptions: writeOptions,
            readConfiguration: readConfiguration)
    }

    func prepareUpdateRecord(
        sysId: SysID, in tableName: String, with fields: [FieldName: FieldValue], writeOptions: FieldWriteOptions?,
        readConfiguration: FieldReadConfiguration?
    ) throws -> PreparedRequest {
        try preparePatch(
            TableRequest.fields(fields), at: try TableRequest.recordPath(tableName, sysId),
            writeOptions: writeOptions, readConfiguration: readConfiguration)
    }

    /// A PATCH of `fields` without their system fields to the record at `path`.
    private func preparePatch(
        _ fields: JSONObject, at path: String, writeOptions: FieldWriteOptions?,
        readConfiguration: FieldReadConfiguration?
    ) throws -> PreparedRequest {
        PreparedRequest(
            request: NowHTTPRequest(
                method: "PATCH", path: path, queryItems: TableRequest.writeItems(writeOptions, readConfiguration),
                body: TableRequest.jsonBody(TableRequest.strippingSystemFields(fields))),
            mode: .idempotent)
    }

    /// Sends a prepared request and returns the body of its 2xx response.
    func send(_ prepared: PreparedRequest) async throws -> Data {
        try await pipeline.send(prepared.request, mode: prepared.mode).body
    }

    /// Decodes `type` at `path`: `cannotParseResponse` when the body is not JSON, `cannotDecodeModel` with the
    /// coding path when it does not fit the type.
    static func decode<Model: Decodable>(_ type: Model.Type, from data: Data, at path: String, coder: Coder) throws
        -> Model
    {
        do {
            return try coder.decode(type, from: data, at: path)
        } catch let error as NowDataError {
            throw error
        } catch let error as DecodingError {
            if case .dataCorrupted(let context) = error, context.codingPath.isEmpty {
                throw NowDataError.cannotParseResponse
            }
            throw NowDataError.cannotDecodeModel(error)
        } catch {
            throw NowDataError.cannotParseResponse
        }
    }

    /// The body of a raw operation, checked to be a JSON object with a `result`: read by ``Coder/default`` from
    /// simdjson's parse, without building the records.
    static func validated(_ data: Data) throws -> Data {
        guard (try? Coder.default.decode(ResultEnvelope.self, from: data)) != nil else {
            throw NowDataError.cannotParseResponse
        }
        return data
    }

    /// Runs `operation`, turning any error that is not a ``NowDataError`` into one.
    static func mappingErrors<T>(_ operation: () async throws -> T) async throws -> T {
        do {
            return try await operation()
        } catch {
            throw RequestPipeline.networkError(error)
        }
    }
}

/// A JSON object with a `result` member, whatever it holds.
private struct ResultEnvelope: Decodable {
    private enum CodingKeys: String, CodingKey {
        case result
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard container.contains(.result) else {
            throw DecodingError.keyNotFound(
                CodingKeys.result, DecodingError.Context(codingPath: [], debugDescription: "no 'result'"))
        }
    }
}
