import Foundation

/// A field's value with its display value and link when sent: a reference field (the sys_id of the record it points
/// to), and every plain field of a ``NowRecord`` (``NowRecord/Field`` is this type).
///
/// It decodes from the shapes the Table API sends: `{"link": ..., "value": ...}` (the default),
/// a plain sys_id string (`sysparm_exclude_reference_link=true`), `{"display_value": ..., "value": ...,
/// "link": ...}` (`sysparm_display_value=all`) and `{"display_value": ..., "link": ...}`
/// (`sysparm_display_value=true`), where the sys_id is the last path segment of the link, read as text when the
/// link is not a URL Foundation parses; a record's fields are read by the same rule. It encodes as the value (the
/// sys_id) string, as the Table API expects on writes. Use `@NowValue var caller: NowReference?` to get nil for an empty reference (`""`).
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
        self.init(
            value: try object.decodeIfPresent(String.self, forKey: .value),
            displayValue: try NowValueDecoding.displayValue(in: object),
            linkText: try object.decodeIfPresent(String.self, forKey: .link))
    }
}

extension NowReference {
    /// The one reading of a reference object's members, shared by a model's decoding and ``NowRecord``'s fields:
    /// the sys_id is `value` when sent, else the last path segment of `link`
    /// (``sysID(fromLink:)``), else empty; `link` is kept when it is a URL Foundation can parse.
    init(value: SysID?, displayValue: String?, linkText: String?) {
        self.init(
            value: Self.sysID(value: value, linkText: linkText), displayValue: displayValue,
            link: linkText.flatMap { URL(string: $0) })
    }

    /// The sys_id of a reference object: `value` when sent, else the last path segment of `linkText`, else empty.
    static func sysID(value: SysID?, linkText: String?) -> SysID {
        value ?? linkText.map(sysID(fromLink:)) ?? ""
    }

    /// The sys_id a reference's link ends with: `681ccaf9` for
    /// `https://dev.service-now.com/api/now/table/sys_user/681ccaf9`.
    ///
    /// It is the URL's last path component when Foundation parses the link; otherwise the last segment of its path
    /// read as text (without query or fragment, percent-decoded), so that a link with a malformed host or port
    /// still gives its sys_id.
    static func sysID(fromLink link: String) -> SysID {
        if let url = URL(string: link) {
            let last = url.lastPathComponent
            return last == "/" ? "" : last
        }
        var text = Substring(link)
        if let end = text.firstIndex(where: { $0 == "?" || $0 == "#" }) {
            text = text[..<end]
        }
        if let scheme = text.range(of: "://") {
            let authority = text[scheme.upperBound...]
            text = authority.firstIndex(of: "/").map { authority[$0...] } ?? ""
        }
        let segment = text.split(separator: "/").last.map(String.init) ?? ""
        return segment.removingPercentEncoding ?? segment
    }
}
