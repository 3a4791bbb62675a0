/// Which of ServiceNow's date formats a text is in: the one test, across the package, of "this is a ServiceNow
/// date".
///
/// ```swift
/// ServiceNowDateKind(text: "2026-01-05 08:00:00")   // .dateTime
/// ServiceNowDateKind(text: "2026-02-30")            // nil: no such day
/// ```
public enum ServiceNowDateKind: Sendable, Hashable {
    /// `yyyy-MM-dd HH:mm:ss`, UTC.
    case dateTime
    /// `yyyy-MM-dd`.
    case date

    /// The format of `text` when it is shaped as a ServiceNow date-time or date and names a real instant; nil for
    /// any other text.
    public init?(text: String) {
        guard ServiceNowDate.date(from: text) != nil else { return nil }
        self = text.utf8.count == 10 ? .date : .dateTime
    }
}
