import Foundation

/// The elements of an array under a ``MatchingDecoder``.
struct MatchingUnkeyedContainer: UnkeyedDecodingContainer {
    var base: any UnkeyedDecodingContainer
    let strategy: JSONDecoder.KeyDecodingStrategy
    /// The model's keys from the root to the array.
    let codingPath: [any CodingKey]
    /// The document, parsed, for the order of its keys.
    let document: TapeDocument?
    var count: Int? { base.count }
    var isAtEnd: Bool { base.isAtEnd }
    var currentIndex: Int { base.currentIndex }

    mutating func decodeNil() throws -> Bool { try base.decodeNil() }
    mutating func decode(_ type: Bool.Type) throws -> Bool { try base.decode(type) }
    mutating func decode(_ type: String.Type) throws -> String { try base.decode(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try base.decode(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try base.decode(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try base.decode(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try base.decode(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try base.decode(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try base.decode(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try base.decode(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try base.decode(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try base.decode(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try base.decode(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try base.decode(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try base.decode(type) }
    mutating func decode(_ type: Int128.Type) throws -> Int128 { try base.decode(type) }
    mutating func decode(_ type: UInt128.Type) throws -> UInt128 { try base.decode(type) }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if MatchingDecoder.isFoundationValue(type) || isAtEnd { return try base.decode(type) }
        let (strategy, codingPath, document) = (strategy, codingPath, document)
        return try advancing {
            try Self.element(of: &$0, strategy: strategy, codingPath: codingPath, document: document).decode(type)
        }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        let (strategy, codingPath, document) = (strategy, codingPath + [PathKey(intValue: currentIndex)], document)
        return try advancing {
            KeyedDecodingContainer(
                MatchingKeyedContainer<NestedKey>(
                    base: try $0.nestedContainer(keyedBy: PathKey.self), strategy: strategy, nestedStrategy: strategy,
                    codingPath: codingPath, document: document))
        }
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (strategy, codingPath, document) = (strategy, codingPath + [PathKey(intValue: currentIndex)], document)
        return try advancing {
            MatchingUnkeyedContainer(
                base: try $0.nestedUnkeyedContainer(), strategy: strategy, codingPath: codingPath, document: document)
        }
    }

    /// Runs `read` on a copy of the base container and moves to the next element only when it succeeds, as
    /// `JSONDecoder`'s containers do.
    private mutating func advancing<T>(_ read: (inout any UnkeyedDecodingContainer) throws -> T) throws -> T {
        var probe = base
        let value = try read(&probe)
        base = probe
        return value
    }

    mutating func superDecoder() throws -> any Decoder {
        try Self.element(of: &base, strategy: strategy, codingPath: codingPath, document: document)
    }

    /// A decoder of the next element of `container`, an array at `codingPath`, which moves past it.
    private static func element(
        of container: inout any UnkeyedDecodingContainer, strategy: JSONDecoder.KeyDecodingStrategy,
        codingPath: [any CodingKey], document: TapeDocument?
    ) throws -> MatchingDecoder {
        let decoder = try container.superDecoder()
        return MatchingDecoder(
            base: decoder, strategy: strategy,
            codingPath: codingPath + [decoder.codingPath.last ?? PathKey(intValue: container.currentIndex - 1)],
            document: document)
    }
}
