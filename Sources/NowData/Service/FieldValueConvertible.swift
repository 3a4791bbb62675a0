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
