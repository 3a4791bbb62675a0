import Foundation
import NowData

/// How a page shows field values read with `sysparm_display_value=all`: display values, references as links to
/// their records, date-times in the user's time zone with UTC on hover, passwords masked.
struct WebValues {
    let dictionary: TableDictionary
    private let formatter: DateFormatter

    init(dictionary: TableDictionary, timeZone: TimeZone) {
        self.dictionary = dictionary
        formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat =
            timeZone.secondsFromGMT() == 0 && timeZone.identifier.contains("UTC") || timeZone.identifier == "GMT"
            ? "yyyy-MM-dd HH:mm:ss 'UTC'" : "yyyy-MM-dd HH:mm:ss zzz"
    }

    /// The field a (maybe dot-walked) path names on `table`: `caller_id.manager.name` walks two references.
    func field(_ path: String, on table: TableDefinition) -> FieldDefinition? {
        dictionary.walk(FieldPath(path), from: table.name)?.field
    }

    /// The label of a (maybe dot-walked) path: `Caller.Manager.Name`; a name the dictionary does not know is shown
    /// as written.
    func label(_ path: String, on table: TableDefinition) -> String {
        let walk = dictionary.fieldWalk(FieldPath(path), from: table.name)
        return walk.path.components.enumerated().map { index, name in
            index < walk.steps.count ? walk.steps[index].field.label : name
        }.joined(separator: ".")
    }

    /// The stored value of a field read with display values (`{"display_value", "value"}`) or without.
    static func value(_ json: JSONValue?) -> String {
        json.flatMap(NowRecord.Field.init(member:))?.value ?? ""
    }

    /// The display value of a field read with display values.
    static func displayValue(_ json: JSONValue?) -> String {
        json.flatMap(NowRecord.Field.init(member:)).map { $0.displayValue ?? $0.value } ?? ""
    }

    /// The HTML of a value of `field`.
    func html(_ json: JSONValue?, field: FieldDefinition?) -> String {
        let value = Self.value(json)
        let display = Self.displayValue(json)
        guard let field else { return HTML.escape(display) }
        if field.isPassword { return value.isEmpty ? "" : "********" }
        switch field.type {
        case .reference(let target) where !value.isEmpty:
            let shown = display.isEmpty ? value : display
            return #"<a href=""# + HTML.href("/\(target).do", [("sys_id", value)]) + #"">"# + HTML.escape(shown)
                + "</a>"
        case .dateTime where !value.isEmpty:
            return time(value)
        default:
            return HTML.escape(display)
        }
    }

    /// A UTC `yyyy-MM-dd HH:mm:ss` as a `<time>` in the user's zone, with the UTC text on hover.
    func time(_ utc: String) -> String {
        guard let date = Coder.default.date(fromText: utc) else { return HTML.escape(utc) }
        return #"<time datetime=""# + HTML.escape(utc.replacingOccurrences(of: " ", with: "T") + "Z")
            + #"" title=""# + HTML.escape(utc + " UTC") + #"">"# + HTML.escape(formatter.string(from: date))
            + "</time>"
    }
}
