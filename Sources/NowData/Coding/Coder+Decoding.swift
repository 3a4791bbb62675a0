import Foundation

extension Coder {
    /// Decodes `type` from the value at a dot-separated path of `data` (the whole document for an empty path).
    ///
    /// Keys match by one rule: a model's `CodingKey` finds a JSON key spelled as it is, or one the decoder's key
    /// strategy converts into it, so models with and without wire-name `CodingKeys` both decode.
    ///
    /// With `.default`, the document is parsed by simdjson and the value decoded straight from the parse, several
    /// times faster than `JSONDecoder`. Anything `JSONDecoder` reads its own way (a fractional number read as an
    /// integer, `Data`, `Decimal`) and every error are handed to `JSONDecoder`, under the same key rule, so values
    /// and messages are the same either way. A `.custom` coder decodes with its own `JSONDecoder`, under that rule
    /// too. Every `NowTableService` operation decodes this way.
    ///
    /// ```swift
    /// let users = try Coder.default.decode([User].self, from: data, at: "result")
    /// ```
    public func decode<T: Decodable>(_ type: T.Type, from data: Data, at path: String = "") throws -> T {
        if case .default = self, let value = TapeDecoding.decode(type, from: data, at: path) {
            return value
        }
        return try decodeMatchingKeys(type, from: data, at: path)
    }
}
