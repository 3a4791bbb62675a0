import Foundation
import NowData

/// Shows the dates of records in a chosen time zone: every text that the job's `Coder` reads as a date is
/// rewritten in the zone (`2026-01-05 08:00:00` becomes `2026-01-05 09:00:00 +01:00` for Europe/Paris).
public struct DateDisplay: Sendable {
    private let coder: Coder
    private let output: DateFormatter

    init(coder: Coder, pattern: String, zone: TimeZone) {
        self.coder = coder
        output = CoderSettings.formatter(pattern, zone: zone)
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

extension Job {
    /// The `Coder` built from the job's `coder.dates`.
    public var dateCoder: Coder { coder.coder }

    /// Dates shown in `timeZone` (`--tz`: UTC, local or an IANA name), or else in the job's `coder.timezone`.
    public func dateDisplay(timeZone: String?) -> DateDisplay {
        let name = timeZone ?? coder.timezone
        let zone =
            name == "local" ? TimeZone.current : TimeZone(identifier: name) ?? TimeZone(identifier: "UTC") ?? .current
        return DateDisplay(coder: coder.coder, pattern: coder.displayPattern, zone: zone)
    }
}
