import Foundation

/// One record as an instance returned it: its plain fields by name, each with its value and, when sent, its display
/// value and link, and every member as JSON, nested values included.
///
/// A member is a plain field when it is a string, a number, a boolean, `null` (read as `""`) or a field object
/// (an object with `value`, `display_value` or `link`: `sysparm_display_value=all`, and references). It reads the
/// plain shape (`"priority": "1"`, references as `{"link", "value"}` or a sys_id), the
/// `sysparm_display_value=true` shape and the `sysparm_display_value=all` shape (`{"display_value", "value"}`).
/// Under `display_value=true` the instance sends display values only: ``value(_:)`` then holds them too, except
/// for references, whose sys_id is the last path segment of their link (the rule ``NowReference`` follows).
///
/// Any other member, an array or an object such as the CMDB Instance API's `attributes` and
/// `outbound_relations`, is a nested value: it is in ``json``, and ``value(at:)-(String)`` reads it by path.
///
/// ```swift
/// let record: NowRecord = data.convertToRecord()
/// let number = record["number"]                 // "INC0010001"
/// let priority = record.int("priority")         // 1
/// let caller = record.displayValue("caller_id") // "Abel Tuter" with display values
/// let name = try record.value(at: "attributes.name").string  // a nested value
/// ```
public struct NowRecord: Sendable, Equatable {
    /// Every member of the record as JSON, in the order the response sent them: its plain fields and its nested
    /// values. It is all the record holds: a field is read from its member when asked for, so two records are
    /// equal when their members are.
    ///
    /// Setting ``fields`` rewrites the members it changes; a record made by ``init(fields:)`` has its members
    /// sorted by name.
    public private(set) var json: JSONObject

    /// The plain fields by name (every member but the nested values), made from ``json`` each time it is read;
    /// ``value(_:)`` and ``displayValue(_:)`` read one field's member alone.
    ///
    /// Setting it updates ``json``: a removed field's member is removed, a changed or added field's member is
    /// written as ``Field`` encodes it (added ones at the end, sorted by name), and the nested values are kept.
    public var fields: [FieldName: Field] {
        get {
            var fields: [FieldName: Field] = [:]
            fields.reserveCapacity(json.count)
            for (name, member) in json {
                if let field = Field(member: member) { fields[name] = field }
            }
            return fields
        }
        set {
            let old = fields
            for name in old.keys where newValue[name] == nil {
                json[name] = nil
            }
            for (name, field) in newValue.sorted(by: { $0.key < $1.key }) where old[name] != field {
                json[name] = field.json
            }
        }
    }

    /// A record made of `fields`, its members sorted by name; empty by default.
    public init(fields: [FieldName: Field] = [:]) {
        json = JSONObject(fields.sorted { $0.key < $1.key }.map { ($0.key, $0.value.json) })
    }

    /// A record of `json`'s members, whose field objects are well formed (``init(reading:)`` checks them).
    init(json: JSONObject) {
        self.json = json
    }

    /// The plain field names, sorted.
    public var fieldNames: [FieldName] {
        json.compactMap { name, member in Field.texts(ofMember: member) == nil ? nil : name }.sorted()
    }

    /// Whether the record has no member at all (what ``Foundation/Data/convertToRecord()`` gives for bad data).
    public var isEmpty: Bool { json.isEmpty }

    /// The record's sys_id; nil when the response did not include the field.
    public var sysId: SysID? { value("sys_id") }

    /// The value of a field, as ``value(_:)``.
    public subscript(name: FieldName) -> String? { value(name) }

    /// The value of a field (a sys_id for a reference, UTC for a date); nil when the record has no such field.
    ///
    /// A dot-walked field (`sysparm_fields=caller_id.name`) is a field of that name: `record["caller_id.name"]`.
    public func value(_ name: FieldName) -> String? {
        json[name].flatMap(Field.texts(ofMember:))?.value
    }

    /// The display value of a field when the response carried one, else its value.
    public func displayValue(_ name: FieldName) -> String? {
        json[name].flatMap(Field.texts(ofMember:)).map { $0.displayValue ?? $0.value }
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

    /// The JSON value at `path` in the record's members, nested values included: `attributes.name`,
    /// `outbound_relations.0.target.value`.
    ///
    /// The first component names a member, so a dot-walked field name (`caller_id.name`) is read with
    /// ``value(_:)`` rather than here.
    ///
    /// - Throws: ``DotPathError`` when a component names no value.
    public func value(at path: DotPath) throws(DotPathError) -> JSONValue {
        try JSONValue.object(json).value(at: path)
    }

    /// The JSON value at the dot-separated `path`, as ``value(at:)-(DotPath)``.
    public func value(at path: String) throws(DotPathError) -> JSONValue {
        try value(at: DotPath(path))
    }
}

extension NowRecord {
    /// One plain field of a record: its value, and its display value and link when the response carried them.
    ///
    /// It is the value, display value and link triple a reference field is, so it is ``NowReference``: a
    /// reference's `value` is the sys_id it points to, a date's is in UTC, an empty field's is `""`.
    public typealias Field = NowReference
}

extension NowRecord: CustomStringConvertible {
    /// The members sorted by name, a nested value by its size:
    /// `NowRecord(caller_id: "681ccaf9" (display: "Abel Tuter"), number: "INC0010001", tags: [2 elements])`.
    public var description: String {
        let members = json.keys.sorted().map { name in
            guard let field = json[name].flatMap(Field.init(member:)) else { return "\(name): \(Self.size(of: json[name]))" }
            var text = "\(name): \"\(field.value)\""
            if let displayValue = field.displayValue, displayValue != field.value {
                text += " (display: \"\(displayValue)\")"
            }
            return text
        }
        return "NowRecord(\(members.joined(separator: ", ")))"
    }

    /// `[2 elements]`, `{1 member}`.
    private static func size(of value: JSONValue?) -> String {
        switch value {
        case .array(let elements): "[\(elements.count) \(elements.count == 1 ? "element" : "elements")]"
        case .object(let members): "{\(members.count) \(members.count == 1 ? "member" : "members")}"
        case let value?: value.jsonText()
        case nil: ""
        }
    }
}
