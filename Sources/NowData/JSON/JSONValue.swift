import Foundation

/// Any JSON value, as the Table API and its neighbours send it: what records, request bodies, job expressions and
/// dry-run output are made of.
///
/// A number keeps the text it was sent as (``JSONNumber``), and an object keeps its keys in order
/// (``JSONObject``), so a value read and written back is the same text.
///
/// ```swift
/// let body: JSONValue = ["short_description": "Printer on fire", "urgency": 2, "active": true]
/// let page = try JSONValue(json: data)
/// let number = try page.value(at: "result.0.number").string   // "INC0010001"
/// ```
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// The text of a string; nil for any other value.
    public var string: String? {
        if case .string(let text) = self { text } else { nil }
    }

    /// The value of a boolean; nil for any other value.
    public var bool: Bool? {
        if case .bool(let value) = self { value } else { nil }
    }

    /// A number; nil for any other value.
    public var number: JSONNumber? {
        if case .number(let number) = self { number } else { nil }
    }

    /// The elements of an array; nil for any other value.
    public var array: [JSONValue]? {
        if case .array(let elements) = self { elements } else { nil }
    }

    /// The members of an object; nil for any other value.
    public var object: JSONObject? {
        if case .object(let members) = self { members } else { nil }
    }

    /// Whether the value is `null`.
    public var isNull: Bool { self == .null }

    /// The member `key` of an object; nil when the value is not an object or has no such member.
    public subscript(key: String) -> JSONValue? {
        object?[key]
    }

    /// The element at `index` of an array; nil when the value is not an array or the index is out of range.
    public subscript(index: Int) -> JSONValue? {
        guard let elements = array, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    /// What kind of value this is, for messages: `null`, `a boolean`, `a number`, `a string`, `an array`,
    /// `an object`.
    public var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByNilLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .number(JSONNumber(value)) }
    public init(floatLiteral value: Double) { self = JSONNumber(value).map(JSONValue.number) ?? .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(nilLiteral: ()) { self = .null }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral members: (String, JSONValue)...) { self = .object(JSONObject(members)) }
}

extension JSONValue: CustomStringConvertible {
    /// The value as compact JSON text.
    public var description: String { jsonText() }
}
