import Foundation
import NowData

/// `GET /api/now/ui/meta/{table}` (also under `/api/now/v1/...`): the table's column dictionary, which WorkArena,
/// SN Utils and MCP servers read to learn a table's fields:
/// `{"result": {"name", "label", "columns": {"<field>": {"name", "label", "type", "mandatory", "max_length"?,
/// "reference"?, "choices"?: [{"label", "value"}], "default_value"?}}}}`, the columns in the dictionary's order
/// (the table's own and inherited fields, then the system fields). The values are those of the field's
/// `sys_dictionary` record (``MetadataRecords``): `type` is the internal type (`glide_date_time`, `reference`,
/// `GUID`, `password2` for a secret field), `max_length` is given where the dictionary has one.
///
/// The endpoint is undocumented: the shape is what those clients read. It takes the table's read role, through
/// the same access decision as the Table API (403 otherwise).
struct UIMetaAPIHandler: Sendable {
    let tables: TableAPIHandler

    /// The table a path of the endpoint names, or nil.
    static func table(in path: String) -> String? {
        var parts = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard parts.count >= 5, parts[0] == "api", parts[1] == "now" else { return nil }
        parts.removeFirst(2)
        if parts[0] == "v1" || parts[0] == "v2" { parts.removeFirst() }
        guard parts.count == 3, parts[0] == "ui", parts[1] == "meta" else { return nil }
        return parts[2]
    }

    /// The answer to `request` for `name`, as the user of `access`.
    func handle(_ request: NowHTTPRequest, tableName name: String, as access: AccessPolicy.Access)
        throws(TableAPIError) -> NowHTTPResponse
    {
        guard request.method.uppercased() == "GET" else { throw .methodNotSupported(request.method.uppercased()) }
        guard let table = tables.dictionary.table(name) else { throw .invalidTable(name) }
        let readable: Bool
        do {
            readable = try access.mayRead(table)
        } catch {
            tables.log("local instance: GET \(request.path) failed: \(error)")
            throw .internalFailure
        }
        guard readable else {
            throw TableAPIError(
                status: 403, message: "Operation Failed",
                detail: "ACL Exception Read Failed due to security constraints")
        }
        var columns = JSONObject()
        for field in table.fields {
            var column: JSONObject = [
                "name": .string(field.name), "label": .string(field.label),
                "type": .string(MetadataRecords.internalType(field)), "mandatory": false,
            ]
            if let length = Int(MetadataRecords.maxLength(field)) { column["max_length"] = .number(JSONNumber(length)) }
            if case .reference(let target) = field.type { column["reference"] = .string(target) }
            if !field.choices.isEmpty {
                column["choices"] = .array(
                    field.choices.map { ["label": .string($0.label), "value": .string($0.value)] })
            }
            if let value = field.defaultValue, !field.isPassword { column["default_value"] = .string(value) }
            columns[field.name] = .object(column)
        }
        let answer: JSONValue = [
            "result": ["name": .string(table.name), "label": .string(table.label), "columns": .object(columns)]
        ]
        return NowHTTPResponse(statusCode: 200, headers: tables.jsonHeaders, body: answer.jsonData())
    }
}
