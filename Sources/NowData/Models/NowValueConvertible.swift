import Foundation

/// A type the Table API sends as a string: `"true"`, `"4"`, `"2024-08-01 12:00:00"`, `""` for empty.
///
/// Conforming types decode through ``NowValue`` from that string and encode back to it. `Bool`, `Int`, `Double`,
/// `Decimal`, `String`, `URL`, `Date`, ``NowReference`` and optionals of them conform already; an enum with raw
/// values conforms by declaring it:
///
/// ```swift
/// enum IncidentState: Int, NowValueConvertible { case new = 1, inProgress = 2, onHold = 3, resolved = 6 }
/// ```
public protocol NowValueConvertible {
    /// The value of `nowValue`, the string the Table API sent; nil when it does not convert.
    init?(nowValue: String)
    /// The string the Table API expects for this value.
    var nowValue: String { get }
    /// Decodes the value from a field in any shape the Table API sends: a string, an object whose `value` holds
    /// it (`sysparm_display_value=all`), or a plain JSON number or boolean.
    ///
    /// - Throws: `DecodingError.dataCorrupted` whose `underlyingError` is
    ///   ``NowDataError/cannotDecodeProperty(type:from:)`` when the string does not convert.
    init(nowValueFrom decoder: any Decoder) throws
    /// Encodes the value as the Table API's string.
    func encodeNowValue(to encoder: any Encoder) throws
}

extension NowValueConvertible {
    public init(nowValueFrom decoder: any Decoder) throws {
        self = try NowValueDecoding.decode(Self.self, from: decoder, convert: Self.init(nowValue:))
    }

    public func encodeNowValue(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(nowValue)
    }
}

extension NowValueConvertible where Self: RawRepresentable, RawValue: NowValueConvertible {
    /// The case whose raw value the string converts to; nil for any other string.
    public init?(nowValue: String) {
        guard let rawValue = RawValue(nowValue: nowValue) else { return nil }
        self.init(rawValue: rawValue)
    }

    /// The raw value's string.
    public var nowValue: String { rawValue.nowValue }
}
