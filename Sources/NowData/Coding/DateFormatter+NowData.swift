import Foundation

extension DateFormatter {
    /// ServiceNow's date-time format, `yyyy-MM-dd HH:mm:ss`, in UTC with `en_US_POSIX` and the Gregorian calendar.
    ///
    /// The SDK's text says the device's locale and time zone are "taken into consideration"; the Table API's
    /// stored values are UTC, so this formatter is fixed to UTC and a fixed locale, which reads them correctly
    /// on every device. Show a date in another zone when rendering it, not when decoding it.
    ///
    /// ```swift
    /// let decoder = JSONDecoder()
    /// decoder.dateDecodingStrategy = .formatted(.nonISO8601UTC)
    /// ```
    public static let nonISO8601UTC: DateFormatter = utcFormatter("yyyy-MM-dd HH:mm:ss")

    /// ServiceNow's date format, `yyyy-MM-dd`, in UTC: the date fields (`due_date` on some tables, `birthday`).
    static let nonISO8601DateOnlyUTC: DateFormatter = utcFormatter("yyyy-MM-dd")

    /// Whether `DateFormatter` (and `ISO8601DateFormatter`) may be given `text` to read: Foundation on Linux traps
    /// ("Incorrect range") when its parse ends inside a character of more than one Unicode scalar, such as a digit
    /// and a combining accent (`1\u{301}`). No date is written with such a character, so such text is not a date.
    static func canRead(_ text: String) -> Bool {
        text.allSatisfy { $0.unicodeScalars.count == 1 }
    }

    private static func utcFormatter(_ format: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.calendar = Calendar(identifier: .gregorian)
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = format
        return formatter
    }
}
