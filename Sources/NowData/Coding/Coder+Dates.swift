import Foundation

extension Coder {
    /// The date a field's text stands for, read the way this coder's decoder reads a date; nil when the text is
    /// not one. No JSON is built: `.default` reads ServiceNow's `yyyy-MM-dd HH:mm:ss` (or `yyyy-MM-dd`) in UTC,
    /// and a `.custom` coder its decoder's `dateDecodingStrategy`.
    ///
    /// ```swift
    /// Coder.default.date(fromText: "2026-01-05 08:00:00")   // 2026-01-05 08:00:00 +0000
    /// ```
    public func date(fromText text: String) -> Date? {
        switch self {
        case .default:
            return ServiceNowDate.date(from: text)
        case .custom(_, let decoder):
            // A `.formatted` or `.iso8601` strategy reads through a formatter, which traps on some text.
            guard DateFormatter.canRead(text) else { return nil }
            switch decoder.dateDecodingStrategy {
            #if canImport(Darwin)
                case .formatted(let formatter): return formatter.date(from: text)
            #endif
            // On Linux, `.formatted` is a `.custom` strategy that reads a string.
            case .iso8601: return ISO8601DateFormatter().date(from: text)
            case .secondsSince1970: return Double(text).map { Date(timeIntervalSince1970: $0) }
            case .millisecondsSince1970: return Double(text).map { Date(timeIntervalSince1970: $0 / 1000) }
            case .deferredToDate: return Double(text).map { Date(timeIntervalSinceReferenceDate: $0) }
            case .custom(let read): return try? read(SingleValueTextDecoder(text: text))
            @unknown default: return nil
            }
        }
    }

    /// The text this coder's encoder writes for a date: ServiceNow's UTC `yyyy-MM-dd HH:mm:ss` for `.default`, or
    /// what a `.custom` encoder's `dateEncodingStrategy` writes (a number's text for the numeric strategies).
    public func text(for date: Date) -> String {
        switch self {
        case .default:
            return ServiceNowDate.string(from: date)
        case .custom(let encoder, _):
            switch encoder.dateEncodingStrategy {
            #if canImport(Darwin)
                case .formatted(let formatter): return formatter.string(from: date)
            #endif
            case .iso8601: return ISO8601DateFormatter().string(from: date)
            case .secondsSince1970: return Self.numberText(date.timeIntervalSince1970)
            case .millisecondsSince1970: return Self.numberText(date.timeIntervalSince1970 * 1000)
            case .deferredToDate: return Self.numberText(date.timeIntervalSinceReferenceDate)
            case .custom(let write):
                let encoder = SingleValueTextEncoder()
                try? write(date, encoder)
                return encoder.text ?? ServiceNowDate.string(from: date)
            @unknown default: return ServiceNowDate.string(from: date)
            }
        }
    }

    private static func numberText(_ value: Double) -> String {
        JSONNumber(value)?.text ?? String(value)
    }
}
