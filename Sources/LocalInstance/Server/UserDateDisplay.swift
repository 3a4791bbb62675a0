import Foundation
import NowData

/// How date-time display values are written for the session's user: in the user's time zone
/// (`sys_user.time_zone`, an IANA name such as `America/Los_Angeles`; empty is the instance's `glide.sys.default.tz`,
/// ``LocalInstance/Options/systemTimeZone``) and date format
/// (`sys_user.date_format`; empty is the instance's, `yyyy-MM-dd`), as the platform writes them.
struct UserDateDisplay {
    /// The date formats a user may choose, in the platform's Java notation.
    static let dateFormats = ["yyyy-MM-dd", "dd-MM-yyyy", "MM-dd-yyyy", "dd/MM/yyyy", "MM/dd/yyyy", "dd.MM.yyyy"]

    private let dateTime: DateFormatter
    private let date: DateFormatter
    private let isUTCDefault: Bool

    /// The display of a user whose record holds `timeZone` and `dateFormat` (either may be empty or unknown: the
    /// instance's default is used, `systemTimeZone` for the zone).
    init(timeZone: String, dateFormat: String, systemTimeZone: TimeZone) {
        let zone = (timeZone.isEmpty ? nil : TimeZone(identifier: timeZone)) ?? systemTimeZone
        let format = Self.dateFormats.contains(dateFormat) ? dateFormat : "yyyy-MM-dd"
        isUTCDefault = ["GMT", "UTC"].contains(zone.identifier) && format == "yyyy-MM-dd"
        func formatter(_ pattern: String, _ timeZone: TimeZone) -> DateFormatter {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.calendar = Calendar(identifier: .gregorian)
            formatter.timeZone = timeZone
            formatter.dateFormat = pattern
            return formatter
        }
        dateTime = formatter(format + " HH:mm:ss", zone)
        // A date has no time zone: only its format changes.
        date = formatter(format, .gmt)
    }

    /// The display of a stored date-time (`yyyy-MM-dd HH:mm:ss` UTC) or date (`yyyy-MM-dd`); the value itself
    /// when it is neither.
    func display(_ stored: String, type: FieldType) -> String {
        if isUTCDefault { return stored }
        switch type {
        case .dateTime:
            guard stored.utf8.count == 19, let instant = Coder.default.date(fromText: stored) else { return stored }
            return dateTime.string(from: instant)
        case .date:
            guard stored.utf8.count == 10, let instant = Coder.default.date(fromText: stored) else { return stored }
            return date.string(from: instant)
        default:
            return stored
        }
    }
}
