import Foundation

extension Coder {
    /// Decodes `type` from the value at a dot-separated path of `data` (the whole document for an empty path), as
    /// `jsonDecoder.decode(_:from:at:)` does, with the same results and the same errors.
    ///
    /// With `.default`, the document is parsed by simdjson and the value decoded straight from the parse, several
    /// times faster than `JSONDecoder`. Anything `JSONDecoder` reads its own way (a fractional number read as an
    /// integer, `Data`, `Decimal`) and every error are handed to `JSONDecoder`. A `.custom` coder decodes with its
    /// own `JSONDecoder`. Either way, keys match by the ``KeyMatching`` rule: a model's `CodingKey` finds a JSON
    /// key spelled as it is or one the decoder's key strategy converts into it, so models with and without wire-name
    /// `CodingKeys` both decode. Every `NowTableService` operation decodes this way.
    ///
    /// ```swift
    /// let users = try Coder.default.decode([User].self, from: data, at: "result")
    /// ```
    public func decode<T: Decodable>(_ type: T.Type, from data: Data, at path: String = "") throws -> T {
        if case .default = self, let value = TapeDecoding.decode(type, from: data, at: path) {
            return value
        }
        return try Self.decodeMatchingKeys(type, from: data, at: path, with: jsonDecoder)
    }
}
