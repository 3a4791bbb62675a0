import Foundation

/// ServiceNow's date formats: date-time `yyyy-MM-dd HH:mm:ss` and date `yyyy-MM-dd`, both UTC.
enum ServiceNowDate {
    /// The date a ServiceNow date-time or date string stands for; nil for any other text.
    ///
    /// The shape is checked first (`DateFormatter` alone accepts `2024-8-1 1:2:3` and leading spaces), then
    /// the formatter checks the ranges (no month 13, no February 30).
    static func date(from string: String) -> Date? {
        let utf8 = Array(string.utf8)
        switch utf8.count {
        case 19 where hasShape(utf8, separators: [4: "-", 7: "-", 10: " ", 13: ":", 16: ":"]):
            return DateFormatter.nonISO8601UTC.date(from: string)
        case 10 where hasShape(utf8, separators: [4: "-", 7: "-"]):
            return DateFormatter.nonISO8601DateOnlyUTC.date(from: string)
        default:
            return nil
        }
    }

    /// The `yyyy-MM-dd HH:mm:ss` UTC text of a date.
    static func string(from date: Date) -> String {
        DateFormatter.nonISO8601UTC.string(from: date)
    }

    /// The `.default` coder's date decoding strategy: a string in either format, else a `dataCorrupted` error.
    @Sendable static func decode(from decoder: any Decoder) throws -> Date {
        let container = try decoder.singleValueContainer()
        let string = try container.decode(String.self)
        guard let date = date(from: string) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "expected a date as yyyy-MM-dd HH:mm:ss or yyyy-MM-dd (UTC), found \"\(string)\"")
        }
        return date
    }

    private static func hasShape(_ utf8: [UInt8], separators: [Int: Character]) -> Bool {
        utf8.indices.allSatisfy { index in
            if let separator = separators[index] { return separator.asciiValue == utf8[index] }
            return (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(utf8[index])
        }
    }
}
