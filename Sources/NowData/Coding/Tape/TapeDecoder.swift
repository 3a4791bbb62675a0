internal import SimdJSON
import Foundation

/// A `Decoder` over a ``TapeDocument`` that decodes as ``Coder/default``'s `JSONDecoder` does: snake_case keys match
/// camelCase properties, dates are ServiceNow's, a `[String: Value]` keeps its keys as sent, and of two keys that
/// match, the first wins.
///
/// One decoder walks the whole document, moving to each nested value in turn as `JSONDecoder` does, so decoding a
/// value allocates nothing but the keyed containers of its objects. What `JSONDecoder` reads its own way (a
/// fractional number read as an integer, a zero read as a `Double`, `Data`, `Decimal`, a date or URL it refuses)
/// is not imitated: ``TapeDocument/needsFoundation`` is set and the caller decodes the document with `JSONDecoder`
/// instead.
final class TapeDecoder: Decoder {
    let tape: TapeDocument
    // Only the decoding thread touches these, one access at a time: no run-time exclusivity checks.
    /// The entry being decoded.
    @exclusivity(unchecked) private(set) var index: Int
    /// The keys from the root to the entry being decoded.
    @exclusivity(unchecked) private(set) var keys: [any CodingKey]
    /// The types decoded so far that are not `[String: Value]` dictionaries.
    @exclusivity(unchecked) private var ordinaryTypes: [ObjectIdentifier] = []

    init(tape: TapeDocument, index: Int = 0, codingPath: [any CodingKey] = []) {
        self.tape = tape
        self.index = index
        self.keys = codingPath
    }

    var codingPath: [any CodingKey] { keys }

    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        try expect(.object, [String: Any].self)
        return KeyedDecodingContainer(TapeKeyedContainer<Key>(decoder: self, object: index, depth: keys.count))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try expect(.array, [Any].self)
        return TapeUnkeyedContainer(decoder: self, array: index, depth: keys.count)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    /// Decodes `type` from the entry at `entry`, the value of `key` in the current one.
    func decode<T: Decodable>(_ type: T.Type, at entry: Int, key: any CodingKey) throws -> T {
        let parent = index
        index = entry
        keys.append(key)
        defer {
            index = parent
            keys.removeLast()
        }
        return try decodeCurrent(type)
    }

    /// Decodes `type` from the current entry; the types `JSONDecoder` reads in its own way are read as it does.
    func decodeCurrent<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == Date.self {
            return try cast(date(), to: type)
        }
        if T.self == URL.self {
            guard let url = URL(string: try string(at: index, codingPath: keys)) else { throw needsFoundation() }
            return try cast(url, to: type)
        }
        if T.self == JSONValue.self {
            return try cast(tape.value(at: index), to: type)
        }
        if T.self == Data.self || T.self == Decimal.self {
            throw needsFoundation()
        }
        if let dictionary = stringKeyedDictionary(type) {
            return try cast(dictionary.init(tapeDecoder: self), to: type)
        }
        return try T(from: self)
    }

    /// `type` as a `[String: Value]` dictionary type, or nil. The runtime's conformance check is costly, so the types
    /// that are not such dictionaries are remembered (a page of records has a handful of them).
    private func stringKeyedDictionary<T>(_ type: T.Type) -> (any TapeDecodableDictionary.Type)? {
        let identifier = ObjectIdentifier(type)
        guard !ordinaryTypes.contains(identifier) else { return nil }
        if let dictionary = type as? any TapeDecodableDictionary.Type { return dictionary }
        if ordinaryTypes.count < 32 { ordinaryTypes.append(identifier) }
        return nil
    }

    /// Marks the document for `JSONDecoder` and returns the error that ends this decoding.
    func needsFoundation() -> any Error {
        tape.needsFoundation = true
        return NeedsFoundation()
    }

    /// The error that ends a decoding handed to `JSONDecoder`.
    private struct NeedsFoundation: Error {}

    // MARK: Values

    func kind(at entry: Int) -> TapeKind {
        tape.entries[entry].kind
    }

    func bool(at entry: Int, codingPath: @autoclosure () -> [any CodingKey]) throws -> Bool {
        switch kind(at: entry) {
        case .true: return true
        case .false: return false
        default: throw mismatch(Bool.self, at: entry, codingPath: codingPath())
        }
    }

    func string(at entry: Int, codingPath: @autoclosure () -> [any CodingKey]) throws -> String {
        // Kinds are matched by pattern: `==` on an enum of another module is a call.
        guard case .string = kind(at: entry) else { throw mismatch(String.self, at: entry, codingPath: codingPath()) }
        return tape.string(at: entry)
    }

    func double(at entry: Int, codingPath: @autoclosure () -> [any CodingKey]) throws -> Double {
        let value = tape.entries[entry]
        switch value.kind {
        // A zero may have been written 1e-400, which JSONDecoder refuses as out of range.
        case .double where value.double != 0: return value.double
        // A zero may have been written -0, which JSONDecoder reads as -0.0.
        case .int64 where value.int64 != 0: return Double(value.int64)
        case .uint64: return Double(value.uint64)
        case .int64, .double: throw needsFoundation()
        default: throw mismatch(Double.self, at: entry, codingPath: codingPath())
        }
    }

    func integer<T: FixedWidthInteger>(
        _ type: T.Type, at entry: Int, codingPath: @autoclosure () -> [any CodingKey]
    ) throws -> T {
        let value = tape.entries[entry]
        let integer: T?
        switch value.kind {
        case .int64: integer = T(exactly: value.int64)
        case .uint64: integer = T(exactly: value.uint64)
        // JSONDecoder reads 1.0 and 1e2 as integers; its rules decide.
        case .double: throw needsFoundation()
        default: throw mismatch(type, at: entry, codingPath: codingPath())
        }
        guard let integer else {
            let number = value.kind == .int64 ? String(value.int64) : String(value.uint64)
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: codingPath(),
                    debugDescription: "Parsed JSON number <\(number)> does not fit in \(T.self)."))
        }
        return integer
    }

    /// A ServiceNow date, as ``Coder/default``'s date strategy reads it.
    private func date() throws -> Date {
        guard case .string = kind(at: index), let date = ServiceNowDate.date(from: tape.string(at: index)) else {
            throw needsFoundation()
        }
        return date
    }

    private func cast<Value, T>(_ value: Value, to type: T.Type) throws -> T {
        guard let typed = value as? T else { throw needsFoundation() }
        return typed
    }

    private func expect(_ kind: TapeKind, _ type: Any.Type) throws {
        guard self.kind(at: index) == kind else { throw mismatch(type, at: index, codingPath: keys) }
    }

    /// The error `JSONDecoder` gives for a value of another kind than `type`.
    func mismatch(_ type: Any.Type, at entry: Int, codingPath: [any CodingKey]) -> DecodingError {
        let kind = kind(at: entry)
        guard kind != .null else {
            return .valueNotFound(
                type,
                DecodingError.Context(
                    codingPath: codingPath,
                    debugDescription: "Cannot get value of type \(type) -- found null value instead"))
        }
        let found =
            switch kind {
            case .true, .false: "bool"
            case .int64, .uint64, .double: "number"
            case .string: "string"
            case .array: "array"
            case .object: "dictionary"
            case .null: "null"
            }
        return .typeMismatch(
            type,
            DecodingError.Context(
                codingPath: codingPath, debugDescription: "Expected to decode \(type) but found \(found) instead."))
    }
}

extension TapeDecoder: SingleValueDecodingContainer {
    func decodeNil() -> Bool { if case .null = kind(at: index) { true } else { false } }
    func decode(_ type: Bool.Type) throws -> Bool { try bool(at: index, codingPath: keys) }
    func decode(_ type: String.Type) throws -> String { try string(at: index, codingPath: keys) }
    func decode(_ type: Double.Type) throws -> Double { try double(at: index, codingPath: keys) }
    func decode(_ type: Float.Type) throws -> Float { throw needsFoundation() }
    func decode(_ type: Int.Type) throws -> Int { try integer(type, at: index, codingPath: keys) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type, at: index, codingPath: keys) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type, at: index, codingPath: keys) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type, at: index, codingPath: keys) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type, at: index, codingPath: keys) }
    func decode(_ type: Int128.Type) throws -> Int128 { throw needsFoundation() }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type, at: index, codingPath: keys) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type, at: index, codingPath: keys) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type, at: index, codingPath: keys) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type, at: index, codingPath: keys) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type, at: index, codingPath: keys) }
    func decode(_ type: UInt128.Type) throws -> UInt128 { throw needsFoundation() }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeCurrent(type) }
}
