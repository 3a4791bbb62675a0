import Foundation

extension NowReference {
    /// The field a record's member holds: a string, a number or boolean (its text), `null` (`""`), or a field
    /// object, read by the reference rule (``init(value:displayValue:linkText:)``); nil for a nested value (an
    /// array, or an object with none of `value`, `display_value` and `link`).
    ///
    /// - Throws: ``MalformedField`` when a field object's `value` or `display_value` is not a string, a number, a
    ///   boolean or null, or its `link` not a string or null.
    init?(json value: JSONValue) throws(MalformedField) {
        guard let parts = try Self.parts(ofMember: value) else { return nil }
        self.init(value: parts.value, displayValue: parts.displayValue, linkText: parts.linkText)
    }

    /// The value and display value of the field a record's member holds, read as ``init(json:)`` reads them but
    /// without parsing the link into a URL: what ``NowRecord``'s lookups return; nil for a nested value or a
    /// malformed field object.
    static func texts(ofMember member: JSONValue) -> (value: SysID, displayValue: String?)? {
        guard let parts = try? Self.parts(ofMember: member) else { return nil }
        return (sysID(value: parts.value, linkText: parts.linkText), parts.displayValue)
    }

    /// The members of the field a record's member holds, as sent: a string, a number or boolean is its text, `null`
    /// is `""`, a field object gives its `value`, `display_value` and `link` texts; nil for a nested value (an
    /// array, or an object with none of `value`, `display_value` and `link`).
    ///
    /// - Throws: ``MalformedField`` as ``init(json:)``.
    static func parts(ofMember member: JSONValue) throws(MalformedField)
        -> (value: SysID?, displayValue: String?, linkText: String?)?
    {
        switch member {
        case .string(let text): return (text, nil, nil)
        case .null: return ("", nil, nil)
        case .number(let number): return (number.text, nil, nil)
        case .bool(let flag): return (flag ? "true" : "false", nil, nil)
        case .array: return nil
        case .object(let object):
            guard object["value"] != nil || object["display_value"] != nil || object["link"] != nil else {
                return nil
            }
            return (
                try Self.text(of: "value", in: object), try Self.text(of: "display_value", in: object),
                try Self.link(in: object)
            )
        }
    }

    /// The field as a record's member: its value as a string, or, with a display value or link, an object of
    /// `display_value`, `value` and `link`.
    var json: JSONValue {
        guard displayValue != nil || link != nil else { return .string(value) }
        var object = JSONObject()
        object["display_value"] = displayValue.map(JSONValue.string)
        object["value"] = .string(value)
        object["link"] = link.map { .string($0.absoluteString) }
        return .object(object)
    }

    /// A member of a field object that is not what a field holds: which member, and what it is instead.
    struct MalformedField: Error, Hashable {
        /// `value`, `display_value` or `link`.
        var member: String
        /// What the member is: `an array`, `an object`, `a number`.
        var found: String

        /// What the member must be.
        var expected: String {
            member == "link" ? "a string or null" : "a string, a number, a boolean or null"
        }

        /// The error at the field's coding path: a `typeMismatch` whose path ends with the member.
        func decodingError(at codingPath: [any CodingKey]) -> DecodingError {
            .typeMismatch(
                String.self,
                DecodingError.Context(
                    codingPath: codingPath + [RecordKey.member(member)],
                    debugDescription: "expected \(expected), found \(found)"))
        }
    }

    /// The text of the string, number or boolean `member`; nil when it is missing or null.
    private static func text(of member: String, in object: JSONObject) throws(MalformedField) -> String? {
        switch object[member] {
        case nil, .null: nil
        case .string(let text): text
        case .number(let number): number.text
        case .bool(let flag): flag ? "true" : "false"
        case let other?: throw MalformedField(member: member, found: other.kindDescription)
        }
    }

    /// The text of the `link`; nil when it is missing or null.
    private static func link(in object: JSONObject) throws(MalformedField) -> String? {
        switch object["link"] {
        case nil, .null: nil
        case .string(let text): text
        case let other?: throw MalformedField(member: "link", found: other.kindDescription)
        }
    }
}

extension NowReference {
    /// The field a record's member holds, read as ``NowRecord`` reads its plain fields: a string, a number or
    /// boolean (its text), `null` (`""`), or a field object (`{value, display_value, link}`, a reference's sys_id
    /// taken from its link when it has no `value`); nil for a nested value or a malformed field object.
    ///
    /// ```swift
    /// let caller = NowRecord.Field(member: record["caller_id"] ?? .null)?.displayValue
    /// ```
    public init?(member value: JSONValue) {
        guard let field = try? Self(json: value) else { return nil }
        self = field
    }
}
