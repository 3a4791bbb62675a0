import Foundation
import NowData

/// A job's dates, through its `Coder` (`coder.dates`) and the zone they are shown in (`coder.timezone`, `--tz`,
/// `:tz`).
///
/// Three conversions, each one date text at a time through NowData's date seam (``Coder/date(fromText:)``,
/// ``Coder/text(for:)``, ``ServiceNowDateKind``), never through JSON:
/// - ``incoming(_:)-(NowRecord)``: the records a job reads come to it in its own format (with `coder.dates: dd/MM/yyyy HH:mm`,
///   `2026-03-07 22:00:00` becomes `07/03/2026 22:00`);
/// - ``outgoing(_:)``: a date the job writes in its format is sent in ServiceNow's UTC `yyyy-MM-dd HH:mm:ss`;
/// - ``shown(_:)``: every text the job's coder reads as a date is shown in the zone, with its offset
///   (`2026-01-05 08:00:00` is `2026-01-05 09:00:00 +01:00` in Europe/Paris).
///
/// With the default `servicenow` format the job's format is the wire's: nothing is converted in or out.
public struct JobDates: Sendable {
    private let coder: Coder
    /// Whether the job's format differs from ServiceNow's.
    private let converts: Bool
    private let output: DateFormatter
    /// The zone dates are shown in, in which `today()` starts and `format_date()` writes.
    let zone: TimeZone

    /// The dates of a job with `settings`, shown in the zone named `zoneName` (UTC for a name that is not one).
    init(_ settings: CoderSettings, zoneName: String) {
        coder = settings.coder
        if case .servicenow = settings.dates { converts = false } else { converts = true }
        zone = Self.zone(named: zoneName) ?? .gmt
        output = CoderSettings.formatter(settings.displayPattern, zone: zone)
    }

    /// The date a text stands for in an expression: ServiceNow's `yyyy-MM-dd HH:mm:ss` or `yyyy-MM-dd` (UTC), or
    /// the job's own format (`coder.dates`); nil for any other text.
    func date(fromText text: String) -> Date? {
        Coder.default.date(fromText: text) ?? (converts ? coder.date(fromText: text) : nil)
    }

    /// Whether `name` names a time zone as `coder.timezone`, `--tz` and `:tz` take it: `local`, `UTC` or an IANA
    /// name such as `Europe/Paris`.
    public static func isTimeZone(_ name: String) -> Bool {
        zone(named: name) != nil
    }

    /// Why `name` is refused as a time zone: `'Mars/Base' is not a time zone; use UTC, local or an IANA name such
    /// as Europe/Paris`.
    public static func notATimeZone(_ name: String) -> String {
        "'\(name)' is not a time zone; use UTC, local or an IANA name such as Europe/Paris"
    }

    private static func zone(named name: String) -> TimeZone? {
        name == "local" ? TimeZone.current : TimeZone(identifier: name)
    }

    /// A record read from the instance with the ServiceNow date-times of its fields (values and display values) in
    /// the job's format: each field converted once, as it comes in; the record as it is with ServiceNow's format.
    func incoming(_ record: NowRecord) -> NowRecord {
        guard converts else { return record }
        var fields = record.fields
        var changed = false
        for (name, field) in fields {
            var converted = field
            converted.value = incomingText(field.value)
            converted.displayValue = field.displayValue.map(incomingText)
            if converted != field {
                fields[name] = converted
                changed = true
            }
        }
        guard changed else { return record }
        var record = record
        record.fields = fields
        return record
    }

    /// A value read from the instance (an attachment's metadata) with every ServiceNow date-time in it rewritten in
    /// the job's format.
    func incoming(_ value: JSONValue) -> JSONValue {
        guard converts else { return value }
        return value.mappingStrings(incomingText)
    }

    /// A ServiceNow date-time in the job's format; any other text as it is.
    private func incomingText(_ text: String) -> String {
        guard ServiceNowDateKind(text: text) == .dateTime, let date = Coder.default.date(fromText: text) else {
            return text
        }
        return coder.text(for: date)
    }

    /// The date a text in the job's format stands for, to be sent in ServiceNow's format; nil when the text is
    /// not one, or when the job's format is ServiceNow's (the text is sent as it is).
    func outgoing(_ text: String) -> Date? {
        guard converts else { return nil }
        return coder.date(fromText: text)
    }

    /// The value with every date in it (every text the job's coder reads as one) shown in the zone.
    public func shown(_ value: JSONValue) -> JSONValue {
        value.mappingStrings { text in coder.date(fromText: text).map(output.string(from:)) ?? text }
    }
}
