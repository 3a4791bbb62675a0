/// A record as the Change Management API answers it: a change request, a change task, a change model or a
/// standard change template, every field a value and a display value.
///
/// ```swift
/// let change = try await changes.createStandardChange(template: templateSysId)
/// print(change.number, change["state"]?.displayValue ?? "")   // CHG0030001 New
/// ```
public struct NowChangeRecord: Sendable, Hashable {
    /// One field: its value, typed as the instance answers it (a number for an integer field, a boolean for a
    /// boolean one, else text), and its display value.
    public struct Field: Sendable, Hashable {
        public let value: JSONValue
        public let displayValue: String

        /// The value as text: `-5` for a state, `true` for a boolean, the text itself otherwise.
        public var text: String {
            switch value {
            case .string(let text): text
            case .number(let number): number.text
            case .bool(let flag): flag ? "true" : "false"
            case .null: ""
            default: String(decoding: value.jsonData(), as: UTF8.self)
            }
        }
    }

    /// The record as the instance sent it: `{"field": {"display_value": ..., "value": ...}, ...}`.
    public let json: JSONValue

    /// A record from its JSON; throws ``NowDataError/cannotParseResponse`` for anything but an object.
    public init(json: JSONValue) throws {
        guard json.object != nil else { throw NowDataError.cannotParseResponse }
        self.json = json
    }

    /// The field `name`, if the record has it.
    public subscript(name: FieldName) -> Field? {
        guard case .object(let pair) = json.object?[name] ?? .null else { return nil }
        return Field(value: pair["value"] ?? .null, displayValue: pair["display_value"]?.string ?? "")
    }

    /// The field names, in the order the instance sent them.
    public var fieldNames: [FieldName] { json.object?.keys ?? [] }

    /// The record's sys_id.
    public var sysId: SysID { self["sys_id"]?.text ?? "" }
    /// The record's number (`CHG0030001`); empty for a model or a template.
    public var number: String { self["number"]?.text ?? "" }
    /// The value of its `state` (`-5`); empty when it has none.
    public var state: String { self["state"]?.text ?? "" }
}
