import Foundation
import NowData

/// Comparison as job files see it: the Table API sends every field as a string, so a number compares with a string
/// that holds one (`state == 6` holds for `"6"`).
extension JSONValue {
    /// The number a value stands for: a number, or a string whose text (spaces around it aside) is a JSON number
    /// (`"6"`, `"2.5"`); nil for anything else.
    var numeric: JSONNumber? {
        switch self {
        case .number(let number): number
        case .string(let text): JSONNumber(text: text.trimmingCharacters(in: .whitespaces))
        default: nil
        }
    }

    /// Equality as job files see it: numbers compare with numeric strings, booleans with `"true"`/`"false"`, null
    /// with the empty string (ServiceNow's empty field), and arrays item by item the same way.
    func looselyEquals(_ other: JSONValue) -> Bool {
        switch (self, other) {
        case (.null, .string(let text)), (.string(let text), .null):
            return text.isEmpty
        case (.bool(let flag), .string(let text)), (.string(let text), .bool(let flag)):
            return text == (flag ? "true" : "false")
        case (.number, .number), (.number, .string), (.string, .number):
            guard let left = numeric, let right = other.numeric else { return false }
            return left == right
        case (.array(let left), .array(let right)):
            return left.count == right.count && zip(left, right).allSatisfy { $0.looselyEquals($1) }
        default:
            return self == other
        }
    }

    /// The order of two values for `<`, `<=`, `>` and `>=`: numbers (or numeric strings) by value, other strings
    /// by text.
    func compare(_ other: JSONValue, _ op: String) throws(EvaluationError) -> ComparisonResult {
        if case .string(let left) = self, case .string(let right) = other, numeric == nil || other.numeric == nil {
            return left < right ? .orderedAscending : left > right ? .orderedDescending : .orderedSame
        }
        guard let left = numeric, let right = other.numeric else {
            throw EvaluationError(message: "'\(op)' cannot compare \(kindDescription) with \(other.kindDescription)")
        }
        if left == right { return .orderedSame }
        return left.double < right.double ? .orderedAscending : .orderedDescending
    }
}
