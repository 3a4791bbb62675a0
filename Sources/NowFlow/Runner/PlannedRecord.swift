import NowData

/// The record a planned update or delete would touch, as it is now, and for an update each field it would change:
/// what a dry run shows before the change is made.
public struct PlannedRecord: Sendable, Hashable {
    /// One field an update would change: its value now and the value sent.
    public struct FieldChange: Sendable, Hashable {
        public var name: String
        public var from: JSONValue
        public var to: JSONValue
    }

    /// The record's sys_id.
    public var sysID: String
    /// How a person knows the record: its ``RecordName`` (`INC0010005 "Email server down"`: a number with the short
    /// description), else its sys_id (with the short description).
    public var display: String
    /// For an update, the fields whose value would change, in the order sent; empty for a delete.
    public var fields: [FieldChange]

    /// The record `before`, named by the first of `naming` it has with a text (``RecordName``), changed by
    /// `changing` (nil for a delete), masked.
    init(before: NowRecord, naming: [String], changing: JSONObject?, masker: SecretMasker) {
        func text(_ name: String) -> String? {
            guard let text = before.value(name) ?? before.json[name]?.text, !text.isEmpty else { return nil }
            return masker(text)
        }
        sysID = text("sys_id") ?? ""
        let title = text("short_description").map { " \"\($0)\"" } ?? ""
        if let name = RecordName(before, fields: naming) {
            display = masker(name.text) + (name.field == "number" ? title : "")
        } else {
            display = sysID + title
        }
        fields = (changing ?? JSONObject()).compactMap { name, value in
            let from = Self.value(of: name, in: before)
            guard name != "sys_id", from.text != value.text else { return nil }
            return FieldChange(name: name, from: masker(from), to: masker(value))
        }
    }

    /// A member of the record: a reference's (a field object's) `value` rather than its `{link, value}`; any other
    /// member as it is; null when the record has none.
    private static func value(of name: String, in record: NowRecord) -> JSONValue {
        guard let member = record.json[name] else { return .null }
        guard case .object = member, let value = record.value(name) else { return member }
        return .string(value)
    }
}
