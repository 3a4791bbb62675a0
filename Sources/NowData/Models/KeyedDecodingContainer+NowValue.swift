import Foundation

extension KeyedDecodingContainer {
    /// Decodes an optional ``NowValue`` whose key may be missing: a missing key or `null` is nil.
    ///
    /// Synthesized `Decodable` conformances call this overload for `@NowValue var x: T?` properties.
    public func decode<Wrapped: NowValueConvertible>(
        _ type: NowValue<Wrapped?>.Type, forKey key: Key
    ) throws -> NowValue<Wrapped?> {
        try decodeIfPresent(type, forKey: key) ?? NowValue(wrappedValue: nil)
    }
}
