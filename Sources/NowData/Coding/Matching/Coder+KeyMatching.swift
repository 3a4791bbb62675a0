import Foundation

extension Coder {
    /// Decodes with `JSONDecoder` under the ``KeyMatching`` rule: the decoder's key strategy is applied here rather
    /// than by `JSONDecoder`, so that a model's keys match JSON keys either as written or as converted.
    ///
    /// A decoder with `.useDefaultKeys` has only one spelling to match, and decodes as it is. A `.custom` coder's
    /// dates are read by its strategy, except text Foundation's formatters cannot be given, which is no date.
    func decodeMatchingKeys<T: Decodable>(_ type: T.Type, from data: Data, at path: String) throws -> T {
        let decoder = jsonDecoder
        let strategy = decoder.keyDecodingStrategy
        let plain = JSONDecoder()
        if case .custom = self {
            plain.dateDecodingStrategy = decoder.dateDecodingStrategy.refusingUnreadableText
        } else {
            plain.dateDecodingStrategy = decoder.dateDecodingStrategy
        }
        plain.dataDecodingStrategy = decoder.dataDecodingStrategy
        plain.nonConformingFloatDecodingStrategy = decoder.nonConformingFloatDecodingStrategy
        plain.userInfo = decoder.userInfo
        plain.allowsJSON5 = decoder.allowsJSON5
        if case .useDefaultKeys = strategy { return try plain.decode(type, from: data, at: path) }
        let matching = MatchingDecoder.Context(strategy: strategy, document: TapeDocument(data))
        return try MatchingDecoder.$context.withValue(matching) {
            try plain.decode(
                MatchedValue<T>.self, from: data, at: path, keyStrategy: strategy, keysAreConverted: false
            ).value
        }
    }
}

/// `T` decoded through a ``MatchingDecoder`` over the value `JSONDecoder` hands it, at the end of a path whose keys
/// appear in coding paths as the strategy converts them (as `JSONDecoder`'s own strategies show them).
private struct MatchedValue<T: Decodable>: Decodable {
    let value: T

    init(from decoder: any Decoder) throws {
        let context = MatchingDecoder.context
        var codingPath = decoder.codingPath
        for (position, key) in codingPath.enumerated() where key.intValue == nil {
            let convert = KeyMatching.conversion(of: context.strategy, at: Array(codingPath[..<position]))
            codingPath[position] = PathKey(stringValue: convert?(key.stringValue) ?? key.stringValue)
        }
        do {
            value = try MatchingDecoder(
                base: decoder, strategy: context.strategy, codingPath: codingPath, document: context.document
            ).decode(T.self)
        } catch let error as DecodingError {
            throw codingPath.indices.reduce(error) { $0.renaming(at: $1, to: codingPath[$1]) }
        }
    }
}
