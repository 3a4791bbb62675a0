import Foundation

extension JSONDecoder.DateDecodingStrategy {
    /// This strategy, except that date text Foundation's formatters cannot be given is refused, with the error the
    /// strategy gives any text that is not a date. `.formatted` (a `.custom` strategy on Linux) and `.iso8601` read
    /// through a formatter, which on Linux traps on a character of several Unicode scalars, such as a digit and a
    /// combining accent (`1\u{301}`); a server's answer must not end the process.
    var refusingUnreadableText: Self {
        switch self {
        case .custom(let read):
            return .custom { decoder in
                try Self.refuseUnreadableText(decoder, "Date string does not match format expected by formatter.")
                return try read(decoder)
            }
        case .iso8601:
            return .custom { decoder in
                let message = "Expected date string to be ISO8601-formatted."
                try Self.refuseUnreadableText(decoder, message)
                let container = try decoder.singleValueContainer()
                guard let date = ISO8601DateFormatter().date(from: try container.decode(String.self)) else {
                    throw DecodingError.dataCorruptedError(in: container, debugDescription: message)
                }
                return date
            }
        default:
            return self
        }
    }

    /// Throws `message` as a data-corrupted error when the value is text a formatter cannot be given.
    private static func refuseUnreadableText(_ decoder: any Decoder, _ message: String) throws {
        let container = try decoder.singleValueContainer()
        guard let text = try? container.decode(String.self), !DateFormatter.canRead(text) else { return }
        throw DecodingError.dataCorruptedError(in: container, debugDescription: message)
    }
}
