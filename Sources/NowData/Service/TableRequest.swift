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

    /// A JSON object body with sorted keys.
    static func jsonBody(_ object: [String: Any]) throws -> Data {
        do {
            return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        } catch {
            throw NowDataError.cannotEncodeModel(
                EncodingError.invalidValue(
                    object, EncodingError.Context(codingPath: [], debugDescription: "The fields are not valid JSON.")))
        }
    }

    /// The fields of a model, encoded with `coder`, as a JSON object.
    static func fields<Model: Encodable>(of model: Model, coder: Coder) throws -> [String: Any] {
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
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw NowDataError.cannotEncodeModel(
                EncodingError.invalidValue(
                    model,
                    EncodingError.Context(
                        codingPath: [], debugDescription: "A record model must encode to a JSON object.")))
        }
        return object
    }

    /// Field values as the Table API writes them: strings, `""` for null.
    static func fields(_ fields: [FieldName: FieldValue]) -> [String: Any] {
        fields.mapValues { $0.stringValue }
    }

    /// Removes the keys a create must not send: the model's own sys_id, under either spelling.
    static func strippingSysID(_ fields: [String: Any]) -> [String: Any] {
        fields.filter { $0.key != "sys_id" && $0.key != "sysId" }
    }

    /// Removes the system fields an update must not send: every `sys_` field and the model's `sysId`.
    static func strippingSystemFields(_ fields: [String: Any]) -> [String: Any] {
        fields.filter { !$0.key.hasPrefix("sys_") && $0.key != "sysId" }
    }

    /// The query items of a write: the write options, then the read configuration.
    static func writeItems(_ writeOptions: FieldWriteOptions?, _ readConfiguration: FieldReadConfiguration?)
        -> [URLQueryItem]
    {
        (writeOptions?.queryItems ?? []) + (readConfiguration?.queryItems ?? [])
    }
}
