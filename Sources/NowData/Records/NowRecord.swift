import Foundation

/// One record as the Table API returned it: every field by name, with its value and, when sent, its display value.
///
/// It reads the plain shape (`"priority": "1"`, references as `{"link", "value"}` or a sys_id), the
/// `sysparm_display_value=true` shape and the `sysparm_display_value=all` shape (`{"display_value", "value"}`).
/// Under `display_value=true` the instance sends display values only: ``value(_:)`` then holds them too, except
/// for references, whose sys_id is read from their link.
///
/// ```swift
/// let record: NowRecord = data.convertToRecord()
/// let number = record["number"]                 // "INC0010001"
/// let priority = record.int("priority")         // 1
/// let caller = record.displayValue("caller_id") // "Abel Tuter" with display values
/// ```
public struct NowRecord: Sendable, Equatable {
    /// The fields by name.
    public var fields: [FieldName: Field]

    /// A record made of `fields`; empty by default.
    public init(fields: [FieldName: Field] = [:]) {
        self.fields = fields
    }

    /// The field names, sorted.
    public var fieldNames: [FieldName] { fields.keys.sorted() }

    /// Whether the record has no field at all (what ``Foundation/Data/convertToRecord()`` gives for bad data).
    public var isEmpty: Bool { fields.isEmpty }

    /// The record's sys_id; nil when the response did not include the field.
    public var sysId: SysID? { value("sys_id") }

    /// The value of a field, as ``value(_:)``.
    public subscript(name: FieldName) -> String? { value(name) }

    /// The value of a field (a sys_id for a reference, UTC for a date); nil when the record has no such field.
    public func value(_ name: FieldName) -> String? { fields[name]?.value }

    /// The display value of a field when the response carried one, else its value.
    public func displayValue(_ name: FieldName) -> String? {
        fields[name].map { $0.displayValue ?? $0.value }
    }

    /// The value of a field converted to `type`; nil when the field is missing, empty or does not convert.
    public func value<T: NowValueConvertible>(_ name: FieldName, as type: T.Type) -> T? {
        guard let value = value(name), !value.isEmpty else { return nil }
        return T(nowValue: value)
    }

    /// The value of a field as a string, as ``value(_:)``.
    public func string(_ name: FieldName) -> String? { value(name) }

    /// The value of a field as an integer (`"4"`).
    public func int(_ name: FieldName) -> Int? { value(name, as: Int.self) }

    /// The value of a field as a boolean (`"true"`, `"false"`).
    public func bool(_ name: FieldName) -> Bool? { value(name, as: Bool.self) }

    /// The value of a field as a number (`"2.5"`).
    public func double(_ name: FieldName) -> Double? { value(name, as: Double.self) }

    /// The value of a field as a date: `yyyy-MM-dd HH:mm:ss` or `yyyy-MM-dd`, UTC
    /// (``Foundation/DateFormatter/nonISO8601UTC``).
    public func date(_ name: FieldName) -> Date? { value(name, as: Date.self) }

    /// The sys_id a reference field points to; nil when the field is missing or empty.
    public func reference(_ name: FieldName) -> SysID? { value(name, as: SysID.self) }
}

extension NowRecord: CustomStringConvertible {
    /// The fields sorted by name: `NowRecord(caller_id: "681ccaf9" (display: "Abel Tuter"), number: "INC0010001")`.
    public var description: String {
        let fields = fieldNames.map { name in
            let field = self.fields[name] ?? Field(value: "")
            var text = "\(name): \"\(field.value)\""
            if let displayValue = field.displayValue, displayValue != field.value {
                text += " (display: \"\(displayValue)\")"
            }
            return text
        }
        return "NowRecord(\(fields.joined(separator: ", ")))"
    }
}
