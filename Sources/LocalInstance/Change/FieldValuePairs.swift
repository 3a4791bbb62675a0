import Foundation
import NowData

/// Records as the Change Management API answers them: every field a `{"display_value", "value"}` pair, the value
/// typed as the field is (a number for an integer or decimal field, `true`/`false` for a boolean, text otherwise),
/// and a date-time with `display_value_internal` besides (its display value, in the user's zone).
///
/// ```json
/// {"state": {"display_value": "New", "value": -5}, "active": {"display_value": "true", "value": true}}
/// ```
enum FieldValuePairs {
    /// The Table API's parameters that answer a record as `{display_value, value}` pairs without links.
    static let tableParameters = [
        URLQueryItem(name: "sysparm_display_value", value: "all"),
        URLQueryItem(name: "sysparm_exclude_reference_link", value: "true"),
    ]

    /// The record of `table` as the Table API answers it with ``tableParameters``, as the API's pairs.
    static func record(_ record: JSONValue, of table: TableDefinition) -> JSONValue {
        guard case .object(let fields) = record else { return record }
        var pairs = JSONObject()
        for (name, value) in fields {
            guard case .object = value, let field = NowRecord.Field(member: value) else {
                pairs[name] = value
                continue
            }
            let display = JSONValue.string(field.displayValue ?? "")
            var answer: JSONObject = ["display_value": display, "value": typed(field.value, table.field(name)?.type)]
            if table.field(name)?.type == .dateTime { answer["display_value_internal"] = display }
            pairs[name] = .object(answer)
        }
        return .object(pairs)
    }

    /// The records of a Table API list answer, as pairs.
    static func records(_ records: JSONValue, of table: TableDefinition) -> JSONValue {
        .array((records.array ?? []).map { record($0, of: table) })
    }

    /// A stored value as the pair's `value`: a number or boolean where the field is one, else the text.
    private static func typed(_ text: String, _ type: FieldType?) -> JSONValue {
        switch type {
        case .integer?, .decimal?:
            if let number = JSONNumber(text: text) { return .number(number) }
        case .boolean?:
            if text == "true" || text == "false" { return .bool(text == "true") }
        default: break
        }
        return .string(text)
    }
}
