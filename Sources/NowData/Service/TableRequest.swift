import Foundation

/// Builds the Table API requests of ``NowTableService``.
enum TableRequest {
    /// `/api/now/table/{table}`, the name percent-encoded as one path segment; `invalidURL` for an empty name.
    static func tablePath(_ tableName: String) throws -> String {
        guard !tableName.isEmpty else { throw NowDataError.invalidURL }
        return "/api/now/table/" + NowHTTPRequest.percentEncodedPathSegment(tableName)
    }

    /// `/api/now/table/{table}/{sys_id}`, each percent-encoded as one path segment: `invalidURL` for an empty
    /// table name, `missingSysID` for an empty sys_id.
    static func recordPath(_ tableName: String, _ sysId: SysID) throws -> String {
        let table = try tablePath(tableName)
        guard !sysId.isEmpty else { throw NowDataError.missingSysID }
        return table + "/" + NowHTTPRequest.percentEncodedPathSegment(sysId)
    }

    /// A JSON object body, written by ``JSONValue/jsonData(pretty:)`` with its members sorted by name (code-point
    /// order), whether they come from a model or from a field dictionary: `JSONEncoder` hashes its keys on Linux, so
    /// its own order changes from one run to the next, and a dictionary has none.
    static func jsonBody(_ object: JSONObject) -> Data {
        JSONValue.object(JSONObject(object.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })).jsonData()
    }

    /// The fields of a model, encoded with `coder`'s `JSONEncoder` and read back by ``JSONValue/init(json:)``.
    static func fields<Model: Encodable>(of model: Model, coder: Coder) throws -> JSONObject {
        let data: Data
        do {
            data = try coder.jsonEncoder.encode(model)
        } catch let error as EncodingError {
            throw NowDataError.cannotEncodeModel(error)
        } catch let error as NowDataError {
            throw error
        } catch {
            throw NowDataError.cannotEncodeModel(
                EncodingError.invalidValue(
                    model, EncodingError.Context(codingPath: [], debugDescription: "\(error)", underlyingError: error)))
        }
        guard let object = (try? JSONValue(json: data))?.object else {
            throw NowDataError.cannotEncodeModel(
                EncodingError.invalidValue(
                    model,
                    EncodingError.Context(
                        codingPath: [], debugDescription: "A record model must encode to a JSON object.")))
        }
        return object
    }

    /// Field values as the Table API writes them: strings, `""` for null.
    static func fields(_ fields: [FieldName: FieldValue]) -> JSONObject {
        JSONObject(fields.map { ($0.key, JSONValue.string($0.value.stringValue)) })
    }

    /// Removes the keys a create must not send: the model's own sys_id, under either spelling.
    static func strippingSysID(_ fields: JSONObject) -> JSONObject {
        JSONObject(fields.filter { $0.key != "sys_id" && $0.key != "sysId" }.map { ($0.key, $0.value) })
    }

    /// Removes the system fields an update must not send: every `sys_` field and the model's `sysId`.
    static func strippingSystemFields(_ fields: JSONObject) -> JSONObject {
        JSONObject(fields.filter { !$0.key.hasPrefix("sys_") && $0.key != "sysId" }.map { ($0.key, $0.value) })
    }

    /// The query items of a write: the write options, then the read configuration.
    static func writeItems(_ writeOptions: FieldWriteOptions?, _ readConfiguration: FieldReadConfiguration?)
        -> [URLQueryItem]
    {
        (writeOptions?.queryItems ?? []) + (readConfiguration?.queryItems ?? [])
    }
}
