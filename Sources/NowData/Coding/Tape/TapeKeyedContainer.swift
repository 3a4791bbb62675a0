internal import SimdJSON
import Foundation

/// The members of an object on a ``TapeDocument``, found by their keys as ``KeyMatching`` matches them.
struct TapeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: TapeDecoder
    /// The document's entries (the decoder keeps the document, and so them).
    private let entries: UnsafePointer<TapeEntry>
    /// The object's entry.
    let object: Int
    /// The length of the object's coding path: the first keys of the decoder's while the container is in use.
    let depth: Int
    /// Where the keys are in objects of this one's shape; nil: the object's members are looked through. Not
    /// retained: the document keeps its plans, and the decoder keeps the document (the standard library's box copies
    /// the container for every value decoded, and each reference it holds costs a retain and a release).
    /// (Unmanaged rather than `unowned(unsafe)`, which is retained around each call made through it.)
    private let plan: Unmanaged<TapeKeyPlan>?

    init(decoder: TapeDecoder, object: Int, depth: Int) {
        self.decoder = decoder
        entries = decoder.tape.entries
        self.object = object
        self.depth = depth
        plan = decoder.tape.keyPlan(Key.self, forObjectAt: object).map(Unmanaged.passUnretained)
    }

    var codingPath: [any CodingKey] { Array(decoder.keys.prefix(depth)) }

    /// The keys of the members, each once: converted as `.convertFromSnakeCase` converts them, or as written when
    /// only that spelling is a `Key` (``KeyMatching``).
    var allKeys: [Key] {
        var seen = Set<String>()
        var keys: [Key] = []
        var member = object + 1
        while member < Int(decoder.tape.entries[object].next) {
            let name = decoder.tape.string(at: member)
            if let key = KeyMatching.key(Key.self, for: name, converting: SnakeCase.camelCase),
                seen.insert(key.stringValue).inserted
            {
                keys.append(key)
            }
            member = Int(decoder.tape.entries[member + 1].next)
        }
        return keys
    }

    func contains(_ key: Key) -> Bool {
        value(key) != nil
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        if case .null = decoder.kind(at: try require(key)) { true } else { false }
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        try decoder.bool(at: require(key), codingPath: codingPath + [key])
    }

    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        let entry = try require(key)
        // Kinds are matched by pattern: `==` on an enum of another module is a call.
        guard case .string = entries[entry].kind else {
            throw decoder.mismatch(String.self, at: entry, codingPath: codingPath + [key])
        }
        return entries[entry].string
    }

    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try decoder.double(at: require(key), codingPath: codingPath + [key])
    }

    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        throw decoder.needsFoundation()
    }

    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(type, key) }
    func decode(_ type: Int128.Type, forKey key: Key) throws -> Int128 { throw decoder.needsFoundation() }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(type, key) }
    func decode(_ type: UInt128.Type, forKey key: Key) throws -> UInt128 { throw decoder.needsFoundation() }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoder.decode(type, at: require(key), key: key)
    }

    // One lookup for a value that may be missing (the protocol's default looks the key up three times).

    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        guard let entry = presentValue(key) else { return nil }
        guard case .string = entries[entry].kind else {
            throw decoder.mismatch(String.self, at: entry, codingPath: codingPath + [key])
        }
        return entries[entry].string
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        guard let entry = presentValue(key) else { return nil }
        return try decoder.bool(at: entry, codingPath: codingPath + [key])
    }

    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        guard let entry = presentValue(key) else { return nil }
        return try decoder.integer(type, at: entry, codingPath: codingPath + [key])
    }

    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        guard let entry = presentValue(key) else { return nil }
        return try decoder.double(at: entry, codingPath: codingPath + [key])
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let entry = presentValue(key) else { return nil }
        return try decoder.decode(type, at: entry, key: key)
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try TapeDecoder(tape: decoder.tape, index: require(key), codingPath: codingPath + [key])
            .container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try TapeDecoder(tape: decoder.tape, index: require(key), codingPath: codingPath + [key]).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        try superDecoder(named: "super", key: PathKey(stringValue: "super"))
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        try superDecoder(named: key.stringValue, key: key)
    }

    /// A decoder of the member `name`; `JSONDecoder` gives a decoder of null for a missing one, which is left to it.
    private func superDecoder(named name: String, key: any CodingKey) throws -> any Decoder {
        guard let entry = decoder.tape.member(name, inObjectAt: object) else { throw decoder.needsFoundation() }
        return TapeDecoder(tape: decoder.tape, index: entry, codingPath: codingPath + [key])
    }

    private func value(_ key: Key) -> Int? {
        guard let plan else { return decoder.tape.member(key.stringValue, inObjectAt: object) }
        let name = key.stringValue
        return plan._withUnsafeGuaranteedRef { $0.value(name, inObjectAt: object) { decoder.tape } }
    }

    /// The value of `key` unless it is missing or null.
    private func presentValue(_ key: Key) -> Int? {
        guard let entry = value(key) else { return nil }
        if case .null = entries[entry].kind { return nil }
        return entry
    }

    private func require(_ key: Key) throws -> Int {
        guard let entry = value(key) else {
            throw DecodingError.keyNotFound(
                key,
                DecodingError.Context(
                    codingPath: codingPath,
                    debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."))
        }
        return entry
    }

    private func integer<T: FixedWidthInteger>(_ type: T.Type, _ key: Key) throws -> T {
        try decoder.integer(type, at: require(key), codingPath: codingPath + [key])
    }
}
