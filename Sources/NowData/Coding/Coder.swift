import Foundation

/// A `JSONEncoder` with its matching `JSONDecoder`, so that both follow the same coding strategy.
///
/// ```swift
/// let myEncoder = JSONEncoder()
/// myEncoder.dateEncodingStrategy = .formatted(.nonISO8601UTC)
/// let myDecoder = JSONDecoder()
/// myDecoder.dateDecodingStrategy = .formatted(.nonISO8601UTC)
/// let myCoder: Coder = .custom(myEncoder, myDecoder)
/// ```
public enum Coder: Sendable {
    /// ServiceNow's dates (`yyyy-MM-dd HH:mm:ss`, UTC) through ``Foundation/DateFormatter/nonISO8601UTC``.
    case `default`
    /// Your own encoder and decoder, for other date formats, time zones or key strategies.
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
        return encoder
    }()

    private static let defaultDecoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .formatted(.nonISO8601UTC)
        return decoder
    }()
}
