/// The value a condition compares a field with, read as the field's type stores it: the one reading that the
/// local instance's SQL translation and ``RecordPredicate`` share, so that both compare the same thing.
///
/// Integers and booleans are whole numbers (booleans `1` and `0`), decimals are numbers, every other type is the
/// text as written; a number may be written with spaces around it (`1, 2` in an `IN` list).
///
/// ```swift
/// try ComparedValue(" 2", type: .integer, field: "priority")   // .integer(2)
/// try ComparedValue("yes", type: .boolean, field: "active")    // throws: active is a boolean field, 'yes' is ...
/// ```
package enum ComparedValue: Sendable, Hashable {
    case integer(Int64)
    case real(Double)
    case text(String)

    /// Why a value cannot be compared with a field: the platform ignores such a condition.
    package struct Mismatch: Error, Sendable {
        /// `priority is an integer field, 'high' is not an integer`.
        package var reason: String
    }

    /// `text` read as a value of a field of `type` named `field` (for the reason of a mismatch).
    package init(_ text: String, type: FieldType, field: String) throws(Mismatch) {
        let trimmed = text.trimmingSpaces
        switch type {
        case .integer:
            guard let number = Int64(trimmed) else {
                throw Mismatch(reason: "\(field) is an integer field, '\(text)' is not an integer")
            }
            self = .integer(number)
        case .decimal:
            guard let number = Double(trimmed), number.isFinite else {
                throw Mismatch(reason: "\(field) is a decimal field, '\(text)' is not a number")
            }
            self = .real(number)
        case .boolean:
            switch trimmed.lowercased() {
            case "true", "1": self = .integer(1)
            case "false", "0": self = .integer(0)
            default: throw Mismatch(reason: "\(field) is a boolean field, '\(text)' is not true or false")
            }
        case .string, .choice, .dateTime, .date, .reference, .other:
            self = .text(text)
        }
    }
}

extension String {
    /// The text without leading and trailing spaces (numbers in a list are often written `1, 2`).
    package var trimmingSpaces: String {
        guard let first = firstIndex(where: { $0 != " " }), let last = lastIndex(where: { $0 != " " }) else {
            return ""
        }
        return String(self[first...last])
    }

    /// Whether the text is a calendar date `yyyy-MM-dd` naming a real day.
    package var isCalendarDate: Bool {
        let bytes = Array(utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return false }
        func number(_ range: Range<Int>) -> Int? {
            var result = 0
            for byte in bytes[range] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                result = result * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return result
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10) else { return false }
        let february = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        let days = [31, february, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return (1...12).contains(month) && (1...days[month - 1]).contains(day)
    }
}
