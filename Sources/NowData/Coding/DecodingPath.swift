import Foundation

/// A ``DotPath`` walked through a decoder's containers, with ``DotPathError``'s messages.
struct DecodingPath: Sendable {
    /// The path being decoded by ``Foundation/JSONDecoder/decode(_:from:at:)`` on this thread or task.
    @TaskLocal static var current: DecodingPath?

    /// The path.
    let path: DotPath
    /// Whether the containers' keys are already converted by the decoder's key strategy (a plain `JSONDecoder`), or
    /// are the JSON's keys as written (under a ``MatchingDecoder``).
    private let keysAreConverted: Bool
    private let keyStrategy: JSONDecoder.KeyDecodingStrategy

    /// The path `text` for a decoder whose containers hold keys converted by `keyStrategy` (`keysAreConverted`),
    /// or as written; an empty component is a `dataCorrupted` error.
    init(_ text: String, keyStrategy: JSONDecoder.KeyDecodingStrategy, keysAreConverted: Bool) throws {
        do {
            path = try DotPath(text)
        } catch {
            throw DecodingError.dataCorrupted(Self.context([], error))
        }
        self.keyStrategy = keyStrategy
        self.keysAreConverted = keysAreConverted
    }

    /// The components of the path.
    var components: [String] { path.components }

    /// Finds component `index` in the value `decoder` stands for and hands its container to `keyed` (an object's
    /// key) or `unkeyed` (an array positioned on the element).
    func step<R>(
        _ index: Int, in decoder: any Decoder,
        keyed: (KeyedDecodingContainer<PathKey>, PathKey) throws -> R,
        unkeyed: (inout any UnkeyedDecodingContainer) throws -> R
    ) throws -> R {
        let component = components[index]
        if var array = try? decoder.unkeyedContainer() {
            let count = array.count ?? 0
            guard let position = DotPath.index(of: component) else {
                throw failure(index, decoder, .notAnIndex(count: count))
            }
            guard position < count else { throw failure(index, decoder, .indexOutOfRange(count: count)) }
            for _ in 0..<position { _ = try array.decode(SkippedValue.self) }
            return try unkeyed(&array)
        }
        guard let object = try? decoder.container(keyedBy: PathKey.self) else {
            throw failure(index, decoder, .notAContainer(found: Self.kind(of: decoder)), type: [String: Any].self)
        }
        guard let key = key(component, in: object) else { throw failure(index, decoder, .keyNotFound) }
        return try keyed(object, key)
    }

    /// The key of `object` that `component` names: the component converted by the key strategy when the
    /// container's keys are; else the key spelled as the component, or the first one that converts as it does.
    private func key(_ component: String, in object: KeyedDecodingContainer<PathKey>) -> PathKey? {
        let convert = KeyMatching.conversion(of: keyStrategy, at: object.codingPath)
        if keysAreConverted {
            let key = PathKey(stringValue: convert?(component) ?? component)
            return object.contains(key) ? key : nil
        }
        let exact = PathKey(stringValue: component)
        if object.contains(exact) { return exact }
        guard let convert else { return nil }
        let wanted = convert(component)
        return object.allKeys.first { convert($0.stringValue) == wanted }
    }

    private func failure(
        _ index: Int, _ decoder: any Decoder, _ reason: DotPathError.Reason, type: Any.Type? = nil
    ) -> DecodingError {
        let error = DotPathError(path: path.text, component: index, reason: reason)
        let context = Self.context(decoder.codingPath, error)
        if let type { return .typeMismatch(type, context) }
        return .keyNotFound(PathKey(stringValue: components[index]), context)
    }

    /// The context of a path's error: its message names the path and the component, so error descriptions show it
    /// without repeating the coding path.
    private static func context(_ codingPath: [any CodingKey], _ error: DotPathError) -> DecodingError.Context {
        DecodingError.Context(codingPath: codingPath, debugDescription: error.description, underlyingError: error)
    }

    /// What kind of JSON value `decoder` stands for, in ``JSONValue/kindDescription``'s words.
    private static func kind(of decoder: any Decoder) -> String {
        guard let value = try? decoder.singleValueContainer() else { return "an array" }
        if value.decodeNil() { return "null" }
        if (try? value.decode(String.self)) != nil { return "a string" }
        if (try? value.decode(Bool.self)) != nil { return "a boolean" }
        if (try? value.decode(Double.self)) != nil { return "a number" }
        return (try? decoder.unkeyedContainer()) != nil ? "an array" : "an object"
    }
}

/// A coding key made of any string or index.
struct PathKey: CodingKey {
    var stringValue: String
    var intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
    }

    init(intValue: Int) {
        self.stringValue = String(intValue)
        self.intValue = intValue
    }
}

/// Any JSON value, skipped without being read.
private struct SkippedValue: Decodable {
    init(from decoder: any Decoder) {}
}
