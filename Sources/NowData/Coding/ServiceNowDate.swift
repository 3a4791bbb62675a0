import Foundation

/// ServiceNow's date formats: date-time `yyyy-MM-dd HH:mm:ss` and date `yyyy-MM-dd`, both UTC.
///
/// Valid dates from 1583 on (the whole Gregorian calendar) are read by hand, byte by byte: `DateFormatter` takes
/// hundreds of times as long per date on Linux, where it clones its ICU formatter for every string. Anything else
/// (earlier years, where the formatter's calendar switches to Julian, and out-of-range fields) is left to the
/// formatters, so both ways give the same results.
enum ServiceNowDate {
    /// The first year read by hand: the first whole year of the Gregorian calendar.
    private static let firstGregorianYear = 1583

    /// The date a ServiceNow date-time or date string stands for; nil for any other text.
    ///
    /// The shape is checked first (`DateFormatter` alone accepts `2024-8-1 1:2:3` and leading spaces), then the
    /// ranges (no month 13, no February 30).
    static func date(from string: String) -> Date? {
        var text = string
        let (shaped, hasTime, date) = text.withUTF8 { bytes -> (Bool, Bool, Date?) in
            switch bytes.count {
            case 19 where hasShape(bytes, separators: dateTimeSeparators):
                (true, true, gregorianDate(bytes, hasTime: true))
            case 10 where hasShape(bytes, separators: dateSeparators):
                (true, false, gregorianDate(bytes, hasTime: false))
            default: (false, false, nil)
            }
        }
        guard shaped else { return nil }
        if let date { return date }
        return (hasTime ? DateFormatter.nonISO8601UTC : DateFormatter.nonISO8601DateOnlyUTC).date(from: string)
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

    private static let dateTimeSeparators: [(Int, UInt8)] = [
        (4, UInt8(ascii: "-")), (7, UInt8(ascii: "-")), (10, UInt8(ascii: " ")), (13, UInt8(ascii: ":")),
        (16, UInt8(ascii: ":")),
    ]
    private static let dateSeparators: [(Int, UInt8)] = [(4, UInt8(ascii: "-")), (7, UInt8(ascii: "-"))]

    /// Whether `bytes` are ASCII digits except for `separators` at their offsets.
    private static func hasShape(_ bytes: UnsafeBufferPointer<UInt8>, separators: [(Int, UInt8)]) -> Bool {
        var next = 0
        for index in bytes.indices {
            if next < separators.count, separators[next].0 == index {
                guard bytes[index] == separators[next].1 else { return false }
                next += 1
            } else if !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
                return false
            }
        }
        return true
    }

    /// The date of well-shaped bytes; nil when a field is out of range or the year is before 1583 (the
    /// formatter decides those).
    private static func gregorianDate(_ bytes: UnsafeBufferPointer<UInt8>, hasTime: Bool) -> Date? {
        func number(_ start: Int, _ count: Int) -> Int {
            var value = 0
            for index in start..<(start + count) { value = value * 10 + Int(bytes[index] &- UInt8(ascii: "0")) }
            return value
        }
        let year = number(0, 4)
        let month = number(5, 2)
        let day = number(8, 2)
        guard year >= firstGregorianYear, (1...12).contains(month), day >= 1, day <= daysIn(month, of: year)
        else { return nil }
        var seconds = daysSince1970(year: year, month: month, day: day) * 86_400
        if hasTime {
            let hour = number(11, 2)
            let minute = number(14, 2)
            let second = number(17, 2)
            guard hour < 24, minute < 60, second < 60 else { return nil }
            seconds += hour * 3_600 + minute * 60 + second
        }
        return Date(timeIntervalSince1970: Double(seconds))
    }

    private static func daysIn(_ month: Int, of year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to a date of the Gregorian calendar (years from 1 on), counting years from March so
    /// that the leap day comes last.
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let marchYear = month <= 2 ? year - 1 : year
        let era = marchYear / 400
        let yearOfEra = marchYear - era * 400
        let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
