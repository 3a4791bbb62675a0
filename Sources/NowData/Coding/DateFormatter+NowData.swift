import Foundation

extension DateFormatter {
    /// ServiceNow's date-time format, `yyyy-MM-dd HH:mm:ss`, in UTC with `en_US_POSIX` and the Gregorian calendar.
    ///
    /// The SDK's text says the device's locale and time zone are "taken into consideration"; the Table API's
    /// stored values are UTC, so this formatter is fixed to UTC and a fixed locale, which reads them correctly
    /// on every device. Show a date in another zone when rendering it, not when decoding it.
    public static let nonISO8601UTC: DateFormatter = {
        let formatter = DateFormatter()
        formatter.calendar = Calendar(identifier: .gregorian)
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return formatter
    }()
}
