import Foundation
import NowData

/// Dates between the job's `coder.dates` format and ServiceNow's: records read are shown to the job in its own
/// format, and dates the job writes (fields, `where:` values) are sent in ServiceNow's `yyyy-MM-dd HH:mm:ss` UTC.
///
/// With the default `servicenow` format nothing is converted.
struct DateConversion: Sendable {
    private let coder: Coder

    /// Nil for the `servicenow` format (nothing to convert).
    init?(_ settings: CoderSettings) {
        if case .servicenow = settings.dates { return nil }
        coder = settings.coder
    }

    /// The value with every ServiceNow date text rewritten in the job's format.
    func incoming(_ value: Value) -> Value {
        switch value {
        case .string(let text):
            guard Self.looksLikeServiceNowDate(text), let date = DateFormatter.nonISO8601UTC.date(from: text),
                let data = try? coder.jsonEncoder.encode(date), case .string(let converted)? = try? Value(json: data)
            else { return value }
            return .string(converted)
        case .list(let items): return .list(items.map(incoming))
        case .map(let fields): return .map(fields.mapValues(incoming))
        default: return value
        }
    }

    /// The date a text in the job's format stands for, if it is one.
    func outgoing(_ text: String) -> Date? {
        guard text.first?.isNumber == true, let data = try? JSONEncoder().encode(text) else { return nil }
        return try? coder.jsonDecoder.decode(Date.self, from: data)
    }

    /// `yyyy-MM-dd HH:mm:ss`, checked by shape before any formatter runs.
    private static func looksLikeServiceNowDate(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 19 else { return false }
        for (index, byte) in bytes.enumerated() {
            switch index {
            case 4, 7: guard byte == UInt8(ascii: "-") else { return false }
            case 10: guard byte == UInt8(ascii: " ") else { return false }
            case 13, 16: guard byte == UInt8(ascii: ":") else { return false }
            default: guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return false }
            }
        }
        return true
    }
}
