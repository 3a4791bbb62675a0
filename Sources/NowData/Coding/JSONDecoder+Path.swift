import Foundation
internal import SimdJSON

extension JSONDecoder {
    /// Decodes the value found at a dot-separated path, without a wrapper type.
    ///
    /// The path is parsed once; each component names a key of an object, or, when it is a number and the value
    /// is an array, an element of the array: `result`, `result.user.photos`, `result.3.name`. An empty path
    /// decodes the whole document. Keys are matched the way this decoder matches a model's keys, so under
    /// `.convertFromSnakeCase` the path `result.caller_id` finds the JSON key `caller_id`.
    ///
    /// The JSON is parsed once and the value is decoded in place with this decoder's strategies and user info;
    /// nothing is re-encoded, so it runs as fast as decoding through a hand-written wrapper struct.
    ///
    /// ```swift
    /// let users = try Coder.default.jsonDecoder.decode([User].self, from: data, at: "result")
    /// ```
    ///
    /// - Throws: `DecodingError`. A missing component is a `keyNotFound` whose description names it:
    ///   `no value at 'result.user' in path 'result.user.photos': key 'user' not found`; a component that
    ///   is not an object or array is a `typeMismatch`; an empty component (`a..b`) is `dataCorrupted`, and so is
    ///   malformed JSON, whose description says where the text breaks (line and column).
    public func decode<T: Decodable>(_ type: T.Type, from data: Data, at path: String) throws -> T {
        try decode(type, from: data, at: path, keyStrategy: keyDecodingStrategy, keysAreConverted: true)
    }

    /// Decodes `type` at `path`, whose components find their keys under `keyStrategy`, in containers whose keys
    /// that strategy has already converted (`keysAreConverted`) or that hold the JSON's keys as written.
    func decode<T: Decodable>(
        _ type: T.Type, from data: Data, at path: String, keyStrategy: KeyDecodingStrategy, keysAreConverted: Bool
    ) throws -> T {
        do {
            guard !path.isEmpty else { return try decode(type, from: data) }
            let decodingPath = try DecodingPath(path, keyStrategy: keyStrategy, keysAreConverted: keysAreConverted)
            return try DecodingPath.$current.withValue(decodingPath) {
                try decode(ValueAtPath<T>.self, from: data).value
            }
        } catch DecodingError.dataCorrupted(let context)
            where context.codingPath.isEmpty && context.underlyingError == nil
        {
            throw DecodingError.dataCorrupted(JSONSyntax.locate(context, in: data))
        }
    }
}

/// Decodes `T` at the path ``DecodingPath/current`` names.
private struct ValueAtPath<T: Decodable>: Decodable {
    var value: T

    init(from decoder: any Decoder) throws {
        guard let path = DecodingPath.current else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "no path to decode at"))
        }
        var decoder = decoder
        for index in path.components.indices.dropLast() {
            decoder = try path.step(index, in: decoder, keyed: { try $0.superDecoder(forKey: $1) },
                unkeyed: { try $0.superDecoder() })
        }
        value = try path.step(path.components.count - 1, in: decoder, keyed: { try $0.decode(T.self, forKey: $1) },
            unkeyed: { try $0.decode(T.self) })
    }
}
