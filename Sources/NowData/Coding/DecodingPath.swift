import Foundation

/// A dot-separated path parsed once, walked through a decoder's containers.
struct DecodingPath: Sendable {
    /// The path being decoded by ``Foundation/JSONDecoder/decode(_:from:at:)`` on this thread or task.
    @TaskLocal static var current: DecodingPath?

    /// The path as written.
    let text: String
    /// Its components, as written.
    let components: [String]
    private let keyStrategy: JSONDecoder.KeyDecodingStrategy

    /// Parses `text`; an empty component is a `dataCorrupted` error.
    init(_ text: String, keyStrategy: JSONDecoder.KeyDecodingStrategy) throws {
        let components = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !components.contains(where: \.isEmpty) else {
            throw DecodingError.dataCorrupted(Failure.context([], "invalid path '\(text)': empty component"))
        }
        self.text = text
        self.components = components
        self.keyStrategy = keyStrategy
    }

    /// Finds component `index` in the value `decoder` stands for and hands its container to `keyed` (an object's
    /// key) or `unkeyed` (an array positioned on the element).
    func step<R>(
        _ index: Int, in decoder: any Decoder,
        keyed: (KeyedDecodingContainer<PathKey>, PathKey) throws -> R,
        unkeyed: (inout any UnkeyedDecodingContainer) throws -> R
    ) throws -> R {
        let component = components[index]
        if let position = Int(component), position >= 0, var array = try? decoder.unkeyedContainer() {
            let count = array.count ?? 0
            guard position < count else {
                throw missing(index, in: decoder, key: PathKey(intValue: position),
                    reason: "index \(position) out of range (\(count) element\(count == 1 ? "" : "s"))")
            }
            for _ in 0..<position { _ = try array.decode(SkippedValue.self) }
            return try unkeyed(&array)
        }
        guard let object = try? decoder.container(keyedBy: PathKey.self) else {
            let expected = Int(component) == nil ? "an object" : "an array or an object"
            throw DecodingError.typeMismatch(
                [String: Any].self,
                Failure.context(
                    decoder.codingPath,
                    noValue(index) + "\(container(index)) is \(Self.kind(of: decoder)), not \(expected)"))
        }
        let key = lookupKey(component, codingPath: decoder.codingPath)
        guard object.contains(key) else {
            throw missing(index, in: decoder, key: key, reason: "key '\(component)' not found")
        }
        return try keyed(object, key)
    }

    /// The key a JSON key `component` becomes under the decoder's key strategy.
    private func lookupKey(_ component: String, codingPath: [any CodingKey]) -> PathKey {
        switch keyStrategy {
        case .useDefaultKeys:
            PathKey(stringValue: component)
        case .convertFromSnakeCase:
            PathKey(stringValue: SnakeCase.camelCase(component))
        case .custom(let convert):
            PathKey(stringValue: convert(codingPath + [PathKey(stringValue: component)]).stringValue)
        @unknown default:
            PathKey(stringValue: component)
        }
    }

    private func missing(_ index: Int, in decoder: any Decoder, key: PathKey, reason: String) -> DecodingError {
        .keyNotFound(key, Failure.context(decoder.codingPath, noValue(index) + reason))
    }

    private func noValue(_ index: Int) -> String {
        "no value at '\(components[...index].joined(separator: "."))' in path '\(text)': "
    }

    private func container(_ index: Int) -> String {
        index == 0 ? "the document" : "'\(components[..<index].joined(separator: "."))'"
    }

    /// What kind of JSON value `decoder` stands for, for error messages.
    private static func kind(of decoder: any Decoder) -> String {
        guard let value = try? decoder.singleValueContainer() else { return "an array" }
        if value.decodeNil() { return "null" }
        if (try? value.decode(String.self)) != nil { return "a string" }
        if (try? value.decode(Bool.self)) != nil { return "a boolean" }
        if (try? value.decode(Double.self)) != nil { return "a number" }
        return (try? decoder.unkeyedContainer()) != nil ? "an array" : "an object"
    }
}

extension DecodingPath {
    /// The underlying error of the `DecodingError`s a path raises: its message names the path and the component,
    /// so error descriptions show it without repeating the coding path.
    struct Failure: Error {
        let message: String

        static func context(_ codingPath: [any CodingKey], _ message: String) -> DecodingError.Context {
            DecodingError.Context(
                codingPath: codingPath, debugDescription: message, underlyingError: Failure(message: message))
        }
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
