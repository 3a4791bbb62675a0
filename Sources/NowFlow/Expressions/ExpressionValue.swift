import Foundation
import NowData

/// A value while an expression is evaluated: a JSON value, one record or records a step read or wrote, or a date or
/// a duration, kinds that JSON does not have.
///
/// A record keeps its type from the step that read or wrote it through references (`steps.get.record`,
/// `steps.query.records`, `steps.query.records.0`, and `steps.query` itself, a step's whole result), variables,
/// foreach items and `extract`, so that it is shown as a record because it is one, not because of its shape; its
/// JSON is its members as the instance sent them. Operators and functions work on the JSON
/// (``withRecordsAsJSON``); `first()` and `last()` of records give a record.
///
/// A date leaves the expression (into a template's text, a field, an encoded query, a variable or a step's result)
/// as the instance's UTC text, `yyyy-MM-dd HH:mm:ss` (NowData's `Coder.default`), and a duration as its number of
/// seconds. A text the job reads as a date (ServiceNow's format, or the job's `coder.dates`) counts as a date where
/// a date is expected: in date arithmetic, comparisons and `format_date`.
enum ExpressionValue: Sendable {
    case json(JSONValue)
    /// One record: a get's, a create's, an update's or an ensure's `record`, or an item of a query's `records`.
    case record(NowRecord)
    /// A query's `records`.
    case records([NowRecord])
    /// A step's whole result (`steps.<id>`), which a path walks into keeping the records it holds typed; never an
    /// extract's, which is the value it extracted (``StepResult/value(at:)``).
    indirect case result(StepResult)
    case date(Date)
    /// A length of time, in seconds.
    case duration(TimeInterval)

    /// The value as JSON: a date as ServiceNow's UTC text, a duration as its number of seconds.
    var json: JSONValue {
        switch self {
        case .json(let value): value
        case .record(let record): record.jsonValue
        case .records(let records): .array(records.map(\.jsonValue))
        case .result(let result): result.json
        case .date(let date): .string(Coder.default.text(for: date))
        case .duration(let seconds): .number(JSONNumber(seconds) ?? JSONNumber(0))
        }
    }

    /// Whether the value is JSON's (not a date or a duration).
    var isJSON: Bool {
        switch self {
        case .json, .record, .records, .result: true
        case .date, .duration: false
        }
    }

    /// The value as operators and functions take it: a record or records as their JSON, the other values as they
    /// are.
    var withRecordsAsJSON: ExpressionValue {
        switch self {
        case .record, .records, .result: .json(json)
        case .json, .date, .duration: self
        }
    }

    /// The value as a variable, a foreach item or an extract keeps it: a date or a duration as its JSON (ServiceNow's
    /// UTC text, a number of seconds), a record or records keeping their type.
    var kept: ExpressionValue {
        switch self {
        case .date, .duration: .json(json)
        case .json, .record, .records, .result: self
        }
    }

    /// `a date`, `a duration`, or the JSON value's kind (`a string`).
    var kindDescription: String {
        switch self {
        case .json(let value): value.kindDescription
        case .record(let record): record.jsonValue.kindDescription
        case .records: JSONValue.array([]).kindDescription
        case .result(let result): result.json.kindDescription
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
        case .record, .records, .result: kindDescription
        case .date: "a date (\(json.text))"
        case .duration: "a duration (\(json.text) s)"
        }
    }
}

extension ExpressionValue: Equatable {
    /// Two values are equal when they are the same kind and equal; two step results when their JSON is.
    static func == (left: ExpressionValue, right: ExpressionValue) -> Bool {
        switch (left, right) {
        case (.json(let left), .json(let right)): left == right
        case (.record(let left), .record(let right)): left == right
        case (.records(let left), .records(let right)): left == right
        case (.result(let left), .result(let right)): left.json == right.json
        case (.date(let left), .date(let right)): left == right
        case (.duration(let left), .duration(let right)): left == right
        default: false
        }
    }
}
