import Foundation

/// The members of an object under a ``MatchingDecoder``: each model key finds its JSON key by the
/// ``KeyMatching`` rule, and errors name the model's key where `JSONDecoder` named the JSON one.
struct MatchingKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let base: KeyedDecodingContainer<PathKey>
    /// The strategy that matches this object's keys (`.useDefaultKeys` for a `[String: Value]` dictionary).
    let strategy: JSONDecoder.KeyDecodingStrategy
    /// The strategy of the values inside it.
    let nestedStrategy: JSONDecoder.KeyDecodingStrategy
    /// The model's keys from the root to the object.
    let codingPath: [any CodingKey]
    /// The document, parsed, for the order of its keys.
    let document: TapeDocument?

    private var convert: ((String) -> String)? { KeyMatching.conversion(of: strategy, at: codingPath) }

    var allKeys: [Key] {
        var seen = Set<String>()
        return jsonKeys.compactMap { jsonKey in
            guard let key = KeyMatching.key(Key.self, for: jsonKey, converting: convert ?? { $0 }),
                seen.insert(key.stringValue).inserted
            else { return nil }
            return key
        }
    }

    func contains(_ key: Key) -> Bool { jsonKey(for: key) != nil }

    func decodeNil(forKey key: Key) throws -> Bool {
        try reading(key) { try base.decodeNil(forKey: $0) }
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try value(type, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try value(type, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try value(type, key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try value(type, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try value(type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try value(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try value(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try value(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try value(type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try value(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try value(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try value(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try value(type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try value(type, key) }
    func decode(_ type: Int128.Type, forKey key: Key) throws -> Int128 { try value(type, key) }
    func decode(_ type: UInt128.Type, forKey key: Key) throws -> UInt128 { try value(type, key) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        if MatchingDecoder.isFoundationValue(type) { return try value(type, key) }
        return try reading(key) { jsonKey in
            try member(jsonKey, key).decode(type)
        }
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let jsonKey = jsonKey(for: key), try !base.decodeNil(forKey: jsonKey) else { return nil }
        return try decode(type, forKey: key)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try reading(key) {
            KeyedDecodingContainer(
                MatchingKeyedContainer<NestedKey>(
                    base: try base.nestedContainer(keyedBy: PathKey.self, forKey: $0), strategy: nestedStrategy,
                    nestedStrategy: nestedStrategy, codingPath: codingPath + [key], document: document))
        }
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try reading(key) {
            MatchingUnkeyedContainer(
                base: try base.nestedUnkeyedContainer(forKey: $0), strategy: nestedStrategy, codingPath: codingPath + [key],
                document: document)
        }
    }

    func superDecoder() throws -> any Decoder {
        MatchingDecoder(
            base: try base.superDecoder(), strategy: nestedStrategy,
            codingPath: codingPath + [PathKey(stringValue: "super")], document: document)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        try member(jsonKey(for: key) ?? PathKey(stringValue: key.stringValue), key)
    }

    /// A decoder of the member `jsonKey`, which the model calls `key`.
    private func member(_ jsonKey: PathKey, _ key: Key) throws -> MatchingDecoder {
        MatchingDecoder(
            base: try base.superDecoder(forKey: jsonKey), strategy: nestedStrategy, codingPath: codingPath + [key],
            document: document)
    }

    /// The JSON key `key` matches: the first, in the document's order, spelled as `key` or converted into it.
    private func jsonKey(for key: Key) -> PathKey? {
        let convert = convert
        return jsonKeys.first { name in
            name == key.stringValue || convert?(name) == key.stringValue
        }.map(PathKey.init(stringValue:))
    }

    /// The object's keys, in the document's order when the document parses with simdjson (JSONDecoder does not
    /// tell it).
    private var jsonKeys: [String] {
        guard let document, let object = document.entry(at: base.codingPath),
            document.entries[object].kind == .object
        else { return base.allKeys.map(\.stringValue) }
        return document.memberKeys(ofObjectAt: object).map(\.name)
    }

    private func value<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T {
        try reading(key) { try base.decode(type, forKey: $0) }
    }

    /// Runs `read` on the JSON key of `key`; a missing key is `JSONDecoder`'s `keyNotFound`, and the coding paths
    /// of errors name `key` rather than the JSON key.
    private func reading<T>(_ key: Key, _ read: (PathKey) throws -> T) throws -> T {
        guard let jsonKey = jsonKey(for: key) else {
            throw DecodingError.keyNotFound(
                key,
                DecodingError.Context(
                    codingPath: codingPath,
                    debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."))
        }
        do {
            return try read(jsonKey)
        } catch let error as DecodingError {
            throw error.renaming(at: codingPath.count, to: key)
        }
    }
}

extension DecodingError {
    /// The error with the coding key at `position` of its coding path replaced by `key`.
    func renaming(at position: Int, to key: any CodingKey) -> DecodingError {
        func renamed(_ context: Context) -> Context {
            guard context.codingPath.count > position else { return context }
            var path = context.codingPath
            path[position] = key
            return Context(codingPath: path, debugDescription: context.debugDescription, underlyingError: context.underlyingError)
        }
        switch self {
        case .typeMismatch(let type, let context): return .typeMismatch(type, renamed(context))
        case .valueNotFound(let type, let context): return .valueNotFound(type, renamed(context))
        case .keyNotFound(let missing, let context): return .keyNotFound(missing, renamed(context))
        case .dataCorrupted(let context): return .dataCorrupted(renamed(context))
        @unknown default: return self
        }
    }
}
