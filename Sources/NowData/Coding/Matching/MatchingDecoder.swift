import Foundation

/// A `Decoder` over a `JSONDecoder`'s decoder (with `.useDefaultKeys`) that matches keys by the ``KeyMatching``
/// rule under a key strategy, and leaves every value to `JSONDecoder`, so that numbers, dates, data and errors are
/// read as it reads them. Coding paths in errors name the model's keys, as `JSONDecoder`'s own strategies do.
struct MatchingDecoder: Decoder {
    /// The decoding under way: its key strategy and its document.
    struct Context: @unchecked Sendable {
        var strategy: JSONDecoder.KeyDecodingStrategy
        // Read only, by the one decoding that set it.
        var document: TapeDocument?
    }

    /// The decoding under way on this task.
    @TaskLocal static var context = Context(strategy: .useDefaultKeys, document: nil)

    let base: any Decoder
    let strategy: JSONDecoder.KeyDecodingStrategy
    /// The model's keys from the root to this value.
    let codingPath: [any CodingKey]
    /// The document, parsed, for the order of its keys; nil when simdjson does not accept it.
    let document: TapeDocument?
    /// Whether this value is a `[String: Value]` dictionary, whose keys `JSONDecoder` keeps as sent.
    var keysAsWritten = false

    var userInfo: [CodingUserInfoKey: Any] { base.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(
            MatchingKeyedContainer<Key>(
                base: try base.container(keyedBy: PathKey.self), strategy: keysAsWritten ? .useDefaultKeys : strategy,
                nestedStrategy: strategy, codingPath: codingPath, document: document))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        MatchingUnkeyedContainer(
            base: try base.unkeyedContainer(), strategy: strategy, codingPath: codingPath, document: document)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        MatchingSingleValueContainer(decoder: self, base: try base.singleValueContainer())
    }

    /// Decodes `type` from this value: through `JSONDecoder` for the types it reads its own way, else through
    /// this decoder so that nested keys match too.
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if Self.isFoundationValue(type) { return try base.singleValueContainer().decode(type) }
        var decoder = self
        decoder.keysAsWritten = T.self is any TapeDecodableDictionary.Type
        return try T(from: decoder)
    }

    /// Whether `JSONDecoder` reads `type` through its strategies rather than the type's own `init(from:)`.
    static func isFoundationValue<T>(_ type: T.Type) -> Bool {
        T.self == Date.self || T.self == Data.self || T.self == URL.self || T.self == Decimal.self
    }
}
