import Foundation

/// A value written to a field by `createRecord` and `updateRecord`.
///
/// Literals of every kind work: `["short_description": "Printer on fire", "urgency": 2, "active": true]`.
/// Dates are sent as ServiceNow's UTC `yyyy-MM-dd HH:mm:ss`; `nil` clears the field.
public enum FieldValue: Sendable, Hashable {
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    case date(Date)
    case null

    /// The value as the Table API writes it: a string, `""` for null.
    public var stringValue: String {
        switch self {
        case .string(let value): value
        case .int(let value): value.nowValue
        case .double(let value): value.nowValue
        case .bool(let value): value.nowValue
        case .date(let value): value.nowValue
        case .null: ""
        }
    }
}

extension FieldValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(nilLiteral: ()) { self = .null }
}

extension FieldValue: Encodable {
    /// Encodes as a JSON string, as the Table API sends values; null as `""`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(stringValue)
    }
}

extension FieldValue: CustomStringConvertible {
    public var description: String { stringValue }
}
