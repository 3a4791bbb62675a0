import NowData

/// How `ensure` reads the record it found, which it reads with `display_value=all`.
extension NowRecord {
    /// Whether the field `name` as stored (`{value, display_value}`) already holds `wanted`: its value or its
    /// display value is the text the Table API would be sent.
    func holds(_ wanted: FieldValue, in name: FieldName) -> Bool {
        let text = wanted.stringValue
        guard let field = fields[name] else { return json[name]?.text == text }
        return field.value == text || field.displayValue == text
    }

    /// The record as `mode` would have shown it: stored values, display values, or both (as read).
    func values(as mode: DisplayValueMode) -> NowRecord {
        guard mode != .all else { return self }
        let members = JSONObject(
            json.map { name, member in
                guard case .object = member, let field = fields[name] else { return (name, member) }
                return (name, .string(mode == .display ? field.displayValue ?? field.value : field.value))
            })
        return (try? NowRecord(.object(members))) ?? self
    }
}
