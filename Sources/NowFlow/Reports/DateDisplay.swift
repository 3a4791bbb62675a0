import Foundation
import NowData

/// Shows the dates of records in a chosen time zone: every text that the job's `Coder` reads as a date is
/// rewritten in the zone (`2026-01-05 08:00:00` becomes `2026-01-05 09:00:00 +01:00` for Europe/Paris).
public struct DateDisplay: Sendable {
    private let coder: Coder
    private let output: DateFormatter

    /// Dates read with the settings' `Coder`, shown in the zone named `zoneName` (UTC for a name that is not one).
    init(_ settings: CoderSettings, zoneName: String) {
        coder = settings.coder
        output = CoderSettings.formatter(settings.displayPattern, zone: Self.zone(named: zoneName) ?? .gmt)
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

    /// The value with its dates shown in the zone.
    public func render(_ value: Value) -> Value {
        switch value {
        case .string(let text):
            guard text.count >= 8, text.first?.isNumber == true,
                let data = try? JSONEncoder().encode(text),
                let date = try? coder.jsonDecoder.decode(Date.self, from: data)
            else { return value }
            return .string(output.string(from: date))
        case .list(let items): return .list(items.map(render))
        case .map(let fields): return .map(fields.mapValues(render))
        default: return value
        }
    }
}
