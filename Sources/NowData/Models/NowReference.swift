import Foundation

/// A reference field: the sys_id of the record it points to, with its display value and link when sent.
///
/// It decodes from the three shapes the Table API sends: `{"link": ..., "value": ...}` (the default),
/// a plain sys_id string (`sysparm_exclude_reference_link=true`) and `{"display_value": ..., "value": ...,
/// "link": ...}` (`sysparm_display_value=all`); under `sysparm_display_value=true`, where the object has no
/// `value`, the sys_id is read from the end of the link. It encodes as the sys_id string, as the Table API
/// expects on writes. Use `@NowValue var caller: NowReference?` to get nil for an empty reference (`""`).
///
/// ```swift
/// struct Incident: Decodable { var callerId: NowReference }
/// ```
public struct NowReference: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The sys_id of the referenced record; empty for an empty reference.
    public var value: SysID
    /// The referenced record's display value (its name or number), when the response carried it.
    public var displayValue: String?
    /// The Table API URL of the referenced record, when the response carried it.
    public var link: URL?

    /// A reference to the record `value`.
    public init(value: SysID, displayValue: String? = nil, link: URL? = nil) {
        self.value = value
        self.displayValue = displayValue
        self.link = link
    }

    public init(from decoder: any Decoder) throws {
        try self.init(nowValueFrom: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        try encodeNowValue(to: encoder)
    }

    /// The sys_id, followed by the display value in parentheses when there is one.
    public var description: String {
        displayValue.map { "\(value) (\($0))" } ?? value
    }
}

extension NowReference: NowValueConvertible {
    /// A reference to the sys_id `nowValue`.
    public init?(nowValue: String) {
        self.init(value: nowValue)
    }

    /// The sys_id.
    public var nowValue: String { value }

    public init(nowValueFrom decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let sysID = try? container.decode(String.self) {
            self.init(value: sysID)
            return
        }
        let object = try decoder.container(keyedBy: NowValueDecoding.FieldKey.self)
        let link = try object.decodeIfPresent(String.self, forKey: .link).flatMap { URL(string: $0) }
        let displayValue = try NowValueDecoding.displayValue(in: object)
        let value = try object.decodeIfPresent(String.self, forKey: .value) ?? link?.lastPathComponent ?? ""
        self.init(value: value, displayValue: displayValue, link: link)
    }
}
