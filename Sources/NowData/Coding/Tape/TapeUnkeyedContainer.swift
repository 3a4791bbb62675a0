internal import SimdJSON
import Foundation

/// The elements of an array on a ``TapeDocument``, read in order.
struct TapeUnkeyedContainer: UnkeyedDecodingContainer {
    let decoder: TapeDecoder
    /// The length of the array's coding path: the first keys of the decoder's while the container is in use.
    let depth: Int
    let count: Int?
    private(set) var currentIndex = 0
    /// The entry of the element at `currentIndex`.
    private var element: Int

    init(decoder: TapeDecoder, array: Int, depth: Int) {
        self.decoder = decoder
        self.depth = depth
        count = Int(decoder.tape.entries[array].count)
        element = array + 1
    }

    var codingPath: [any CodingKey] { Array(decoder.keys.prefix(depth)) }

    var isAtEnd: Bool { currentIndex >= count ?? 0 }

    mutating func decodeNil() throws -> Bool {
        guard case .null = decoder.kind(at: try current(Never?.self)) else { return false }
        advance()
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool {
        try read { try $0.bool(at: $1, codingPath: $2()) }
    }

    mutating func decode(_ type: String.Type) throws -> String {
        try read { try $0.string(at: $1, codingPath: $2()) }
    }

    mutating func decode(_ type: Double.Type) throws -> Double {
        try read { try $0.double(at: $1, codingPath: $2()) }
    }

    mutating func decode(_ type: Float.Type) throws -> Float { throw decoder.needsFoundation() }
    mutating func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    mutating func decode(_ type: Int128.Type) throws -> Int128 { throw decoder.needsFoundation() }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }
    mutating func decode(_ type: UInt128.Type) throws -> UInt128 { throw decoder.needsFoundation() }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let entry = try current(type)
        let value = try decoder.decode(type, at: entry, key: ElementKey(currentIndex))
        advance()
        return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let container = try elementDecoder(type).container(keyedBy: type)
        advance()
        return container
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let container = try elementDecoder([Any].self).unkeyedContainer()
        advance()
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        let elementDecoder = try elementDecoder(TapeDecoder.self)
        advance()
        return elementDecoder
    }

    /// A decoder of its own for the current element, for containers and decoders that outlive this call.
    private func elementDecoder(_ type: Any.Type) throws -> TapeDecoder {
        TapeDecoder(tape: decoder.tape, index: try current(type), codingPath: codingPath + [ElementKey(currentIndex)])
    }

    /// The entry of the current element; at the end, the `valueNotFound` error `JSONDecoder` gives.
    private func current(_ type: Any.Type) throws -> Int {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                type,
                DecodingError.Context(
                    codingPath: codingPath + [ElementKey(currentIndex)],
                    debugDescription: "Unkeyed container is at end."))
        }
        return element
    }

    private mutating func advance() {
        element = Int(decoder.tape.entries[element].next)
        currentIndex += 1
    }

    /// Reads the current element with `read`, then moves past it.
    private mutating func read<T>(
        _ read: (TapeDecoder, Int, @autoclosure () -> [any CodingKey]) throws -> T
    ) throws -> T {
        let entry = try current(T.self)
        let value = try read(decoder, entry, codingPath + [ElementKey(currentIndex)])
        advance()
        return value
    }

    private mutating func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        try read { try $0.integer(type, at: $1, codingPath: $2()) }
    }
}

/// The coding key of an array element, as `JSONDecoder` names it.
struct ElementKey: CodingKey {
    let intValue: Int?

    init(_ index: Int) {
        intValue = index
    }

    init?(intValue: Int) {
        self.intValue = intValue
    }

    init?(stringValue: String) { nil }

    var stringValue: String { "Index \(intValue ?? 0)" }
}
