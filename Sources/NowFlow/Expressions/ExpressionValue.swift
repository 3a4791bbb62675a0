import Foundation
import NowData

/// A value while an expression is evaluated: a JSON value, or a date or a duration, kinds that JSON does not have.
///
/// A date leaves the expression (into a template's text, a field, an encoded query, a variable or a step's result)
/// as the instance's UTC text, `yyyy-MM-dd HH:mm:ss` (NowData's `Coder.default`), and a duration as its number of
/// seconds. A text the job reads as a date (ServiceNow's format, or the job's `coder.dates`) counts as a date where
/// a date is expected: in date arithmetic, comparisons and `format_date`.
enum ExpressionValue: Sendable, Hashable {
    case json(JSONValue)
    case date(Date)
    /// A length of time, in seconds.
    case duration(TimeInterval)

    /// The value as JSON: a date as ServiceNow's UTC text, a duration as its number of seconds.
    var json: JSONValue {
        switch self {
        case .json(let value): value
        case .date(let date): .string(Coder.default.text(for: date))
        case .duration(let seconds): .number(JSONNumber(seconds) ?? JSONNumber(0))
        }
    }

    /// Whether the value is JSON's (not a date or a duration).
    var isJSON: Bool {
        if case .json = self { true } else { false }
    }

    /// `a date`, `a duration`, or the JSON value's kind (`a string`).
    var kindDescription: String {
        switch self {
        case .json(let value): value.kindDescription
        case .date: "a date"
        case .duration: "a duration"
        }
    }

    /// The date the value stands for: a date, or a text that `dates` reads as one.
    func date(reading dates: JobDates) -> Date? {
        switch self {
        case .date(let date): date
        case .json(.string(let text)): dates.date(fromText: text)
        default: nil
        }
    }

    /// The value in a few words, for messages: `'abc'`, `5`, `a date (2026-01-05 08:00:00)`.
    var brief: String {
        switch self {
        case .json(.string(let text)): "'\(text.count > 40 ? String(text.prefix(37)) + "..." : text)'"
        case .json(.number(let number)): number.text
        case .json(let value): value.kindDescription
        case .date: "a date (\(json.text))"
        case .duration: "a duration (\(json.text) s)"
        }
    }
}
