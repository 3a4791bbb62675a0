import Foundation
import NowData

/// Comparison with dates: a date compares with a date, or with a text the job reads as one (a record's
/// `opened_at`); two texts that both read as dates compare as dates. Everything else compares as JSON values do in
/// job files (``JSONValue/looselyEquals(_:)``, ``JSONValue/compare(_:_:)``).
extension ExpressionValue {
    /// `==` as job files see it.
    func looselyEquals(_ other: ExpressionValue, dates: JobDates) -> Bool {
        switch (self, other) {
        case (.json(let left), .json(let right)):
            if left.looselyEquals(right) { return true }
            guard case .string = left, case .string = right, let leftDate = date(reading: dates),
                let rightDate = other.date(reading: dates)
            else { return false }
            return leftDate == rightDate
        case (.duration(let left), .duration(let right)):
            return left == right
        case (.duration, _), (_, .duration):
            return false
        default:
            guard let leftDate = date(reading: dates), let rightDate = other.date(reading: dates) else { return false }
            return leftDate == rightDate
        }
    }

    /// The order of two values for `<`, `<=`, `>` and `>=` (and `min()`, `max()`): dates by time, durations by
    /// length, numbers (or numeric texts) by value, other texts alphabetically.
    func compare(_ other: ExpressionValue, _ op: String, dates: JobDates) throws(EvaluationError) -> ComparisonResult {
        switch (self, other) {
        case (.duration(let left), .duration(let right)):
            return left < right ? .orderedAscending : left > right ? .orderedDescending : .orderedSame
        case (.json(let left), .json(let right)):
            if case .string = left, case .string = right, let leftDate = date(reading: dates),
                let rightDate = other.date(reading: dates)
            {
                return leftDate.compare(rightDate)
            }
            return try left.compare(right, op)
        default:
            guard let leftDate = date(reading: dates), let rightDate = other.date(reading: dates) else {
                throw EvaluationError(message: "'\(op)' cannot compare \(brief) with \(other.brief)")
            }
            return leftDate.compare(rightDate)
        }
    }

    /// `item in self`: a substring of a text, an item of a list (compared as `==` does), a key of an object.
    func holds(_ item: ExpressionValue, dates: JobDates) throws(EvaluationError) -> Bool {
        switch self {
        case .json(.string(let text)): return text.hasSubstring(item.json.text)
        case .json(.array(let items)): return items.contains { ExpressionValue.json($0).looselyEquals(item, dates: dates) }
        case .json(.object(let members)): return members[item.json.text] != nil
        case .json(.null): return false
        default:
            throw EvaluationError(message: "'in' looks in a string, an array or an object, not \(kindDescription)")
        }
    }
}
