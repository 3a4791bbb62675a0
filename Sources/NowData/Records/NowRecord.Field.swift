import Foundation

extension NowRecord {
    /// One field of a record: its value, and its display value and link when the response carried them.
    public struct Field: Sendable, Hashable {
        /// The stored value: a sys_id for a reference, UTC for a date, `""` for empty.
        public var value: String
        /// The display value (`sysparm_display_value=true` or `all`), when sent.
        public var displayValue: String?
        /// The Table API URL of a referenced record, when sent.
        public var link: URL?

        /// A field.
        public init(value: String, displayValue: String? = nil, link: URL? = nil) {
            self.value = value
            self.displayValue = displayValue
            self.link = link
        }
    }
}

extension NowRecord.Field: Codable {
    /// Decodes a field in any shape the Table API sends: a string, `null` (as `""`), a number or boolean (as its
    /// text), or an object with `value`, `display_value` and `link`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let string = try? container.decode(String.self) {
            self.init(value: string)
        } else if container.decodeNil() {
            self.init(value: "")
        } else if let field = try Self(fieldObject: decoder) {
            self = field
        } else {
            self.init(value: try NowValueDecoding.decode(String.self, from: decoder) { $0 })
        }
    }

    /// The field of an object with `value`, `display_value` or `link`; nil for any other value.
    private init?(fieldObject decoder: any Decoder) throws {
        guard let object = try? decoder.container(keyedBy: NowValueDecoding.FieldKey.self) else { return nil }
        let displayValue = try NowValueDecoding.displayValue(in: object)
        guard object.contains(.value) || object.contains(.link) || displayValue != nil else { return nil }
        let link = try object.decodeIfPresent(String.self, forKey: .link).flatMap { URL(string: $0) }
        let value =
            try object.contains(.value)
            ? NowValueDecoding.decode(String.self, from: object.superDecoder(forKey: .value)) { $0 }
            : link?.lastPathComponent ?? displayValue ?? ""
        self.init(value: value, displayValue: displayValue, link: link)
    }

    /// Encodes a plain field as its string, and a field with a display value or link as an object.
    public func encode(to encoder: any Encoder) throws {
        guard displayValue != nil || link != nil else {
            var container = encoder.singleValueContainer()
            try container.encode(value)
            return
        }
        var object = encoder.container(keyedBy: NowValueDecoding.FieldKey.self)
        try object.encodeIfPresent(displayValue, forKey: .displayValue)
        try object.encode(value, forKey: .value)
        try object.encodeIfPresent(link?.absoluteString, forKey: .link)
    }
}
