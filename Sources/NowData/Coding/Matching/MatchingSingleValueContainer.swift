import Foundation

/// The single value of a ``MatchingDecoder``.
struct MatchingSingleValueContainer: SingleValueDecodingContainer {
    let decoder: MatchingDecoder
    let base: any SingleValueDecodingContainer

    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool { base.decodeNil() }
    func decode(_ type: Bool.Type) throws -> Bool { try base.decode(type) }
    func decode(_ type: String.Type) throws -> String { try base.decode(type) }
    func decode(_ type: Double.Type) throws -> Double { try base.decode(type) }
    func decode(_ type: Float.Type) throws -> Float { try base.decode(type) }
    func decode(_ type: Int.Type) throws -> Int { try base.decode(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try base.decode(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try base.decode(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try base.decode(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try base.decode(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try base.decode(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try base.decode(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try base.decode(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try base.decode(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try base.decode(type) }
    func decode(_ type: Int128.Type) throws -> Int128 { try base.decode(type) }
    func decode(_ type: UInt128.Type) throws -> UInt128 { try base.decode(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if MatchingDecoder.isFoundationValue(type) { return try base.decode(type) }
        return try decoder.decode(type)
    }
}
