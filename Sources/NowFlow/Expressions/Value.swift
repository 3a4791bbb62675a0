import Foundation

/// A value in a job: a variable, a step's result, a record, a field, or what an expression computes.
///
/// Records from the Table API are ``map(_:)`` values whose fields are strings (the API sends every field as a
/// JSON string); comparisons between a number and a numeric string compare the numbers, so `state == 6` holds for
/// a record whose `state` is `"6"`.
public enum Value: Sendable, Hashable {
    /// `null`: a JSON null, or a missing value on the left of `??`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A whole number.
    case int(Int)
    /// A number with a fraction.
    case double(Double)
    /// A text; every field of a record read from the Table API is one.
    case string(String)
    /// A list, such as a query's `records`.
    case list([Value])
    /// A mapping of names to values: a record, a step's result.
    case map([String: Value])

    /// The kind of value, for messages: "a string", "a number", "a list", ...
    public var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .int, .double: "a number"
        case .string: "a string"
        case .list: "a list"
        case .map: "a record"
        }
    }

    /// The numeric value of a number, or of a string that holds one (`"6"`, `"2.5"`).
    var number: Double? {
        switch self {
        case .int(let value): Double(value)
        case .double(let value): value
        case .string(let text): Double(text.trimmingCharacters(in: .whitespaces))
        default: nil
        }
    }

    /// The text a value becomes inside a template or a field: strings as they are, numbers without a needless
    /// `.0`, null as empty, lists and records as JSON.
    public var text: String {
        switch self {
        case .null: ""
        case .bool(let value): value ? "true" : "false"
        case .int(let value): String(value)
        case .double(let value): Self.format(value)
        case .string(let value): value
        case .list, .map: jsonText()
        }
    }

    /// Whether the value is null, an empty string, list or record (`empty(x)`).
    var isEmpty: Bool {
        switch self {
        case .null: true
        case .string(let value): value.isEmpty
        case .list(let items): items.isEmpty
        case .map(let fields): fields.isEmpty
        case .bool, .int, .double: false
        }
    }

    static func format(_ value: Double) -> String {
        if value.isFinite, value == value.rounded(), abs(value) < 1e15 {
            return String(Int(value))
        }
        return String(value)
    }
}
