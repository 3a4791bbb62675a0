import Foundation

/// A `JSONEncoder` with its matching `JSONDecoder`, so that both follow the same coding strategy.
///
/// `.default` is what the Table API speaks:
/// - dates are ServiceNow's `yyyy-MM-dd HH:mm:ss` in UTC (see ``Foundation/DateFormatter/nonISO8601UTC``);
///   date-only fields (`yyyy-MM-dd`) decode too, as midnight UTC, and a date in any other format is a
///   `DecodingError.dataCorrupted` that names the coding path and the value;
/// - keys are snake_case in JSON and camelCase in Swift (`sys_id` ↔ `sysId`, `short_description` ↔
///   `shortDescription`), with the results of `.convertFromSnakeCase` (through a faster equivalent) and
///   `.convertToSnakeCase`;
/// - the encoder sorts keys, so the same model always gives the same bytes.
///
/// The SDK's text says the default coder uses "the device's `Locale` and `TimeZone`". ServiceNow stores and sends
/// actual values in UTC, so `.default` reads and writes UTC with `en_US_POSIX` on every device; convert to a
/// local zone when you show a date, not when you decode it.
///
/// ```swift
/// let myEncoder = JSONEncoder()
/// myEncoder.dateEncodingStrategy = .formatted(.nonISO8601UTC)
/// let myDecoder = JSONDecoder()
/// myDecoder.dateDecodingStrategy = .formatted(.nonISO8601UTC)
/// let myCoder: Coder = .custom(myEncoder, myDecoder)
/// ```
public enum Coder: Sendable {
    /// ServiceNow's UTC dates and snake_case keys; the default of every `coder:` parameter.
    case `default`
    /// Your own encoder and decoder, for other date formats, time zones or key strategies.
    ///
    /// Both should follow the same strategies. A model's `sysId` maps to `sys_id` only through a snake_case key
    /// strategy (or your own `CodingKeys`): set `keyDecodingStrategy = .convertFromSnakeCase` and
    /// `keyEncodingStrategy = .convertToSnakeCase` when you decode ``SysIdentifiableModel``s.
    case custom(JSONEncoder, JSONDecoder)

    /// The encoder of this coder (shared, not rebuilt per call).
    public var jsonEncoder: JSONEncoder {
        switch self {
        case .default: Self.defaultEncoder
        case .custom(let encoder, _): encoder
        }
    }

    /// The decoder of this coder (shared, not rebuilt per call).
    public var jsonDecoder: JSONDecoder {
        switch self {
        case .default: Self.defaultDecoder
        case .custom(_, let decoder): decoder
        }
    }

    private static let defaultEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .formatted(.nonISO8601UTC)
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = .sortedKeys
        return encoder
    }()

    private static let defaultDecoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom(ServiceNowDate.decode)
        decoder.keyDecodingStrategy = SnakeCase.decodingStrategy
        return decoder
    }()
}
