import Foundation

/// A value that `createRecord` and `updateRecord` accept as a field value.
///
/// It lets a homogeneous dictionary such as the SDK example's `["short_description": "test description"]`
/// (a `[String: String]`) be passed where `[FieldName: FieldValue]` is expected.
public protocol FieldValueConvertible {
    /// The value as a ``FieldValue``.
    var fieldValue: FieldValue { get }
}

extension FieldValue: FieldValueConvertible {
    public var fieldValue: FieldValue { self }
}

extension String: FieldValueConvertible {
    public var fieldValue: FieldValue { .string(self) }
}

extension Int: FieldValueConvertible {
    public var fieldValue: FieldValue { .int(self) }
}

extension Double: FieldValueConvertible {
    public var fieldValue: FieldValue { .double(self) }
}

extension Bool: FieldValueConvertible {
    public var fieldValue: FieldValue { .bool(self) }
}

extension Date: FieldValueConvertible {
    public var fieldValue: FieldValue { .date(self) }
}

extension Optional: FieldValueConvertible where Wrapped: FieldValueConvertible {
    public var fieldValue: FieldValue { self?.fieldValue ?? .null }
}

extension JSONValue: FieldValueConvertible {
    /// The value as a field value: a string as itself, a number as its text (`2800` stays `"2800"`, `0.10` stays
    /// `"0.10"`), a boolean as a boolean, null as ``FieldValue/null``, and an array or object as its compact JSON
    /// text.
    public var fieldValue: FieldValue {
        switch self {
        case .string(let text): .string(text)
        case .number(let number): .string(number.text)
        case .bool(let flag): .bool(flag)
        case .null: .null
        case .array, .object: .string(jsonText())
        }
    }
}
