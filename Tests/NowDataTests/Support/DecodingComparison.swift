import Foundation
import Testing

@testable import NowData

/// Compares `Coder.default`'s decoding (the simdjson fast path, `TapeDecoding`, with its fallback) with
/// `Coder.default.jsonDecoder`'s under the key matching rule, which is the contract: same value, or the same error.
/// Where a model spells no key as the JSON does, that is also plain `JSONDecoder`'s outcome.
enum DecodingComparison {
    /// What a decoding gave: a value, or the text of the error thrown.
    enum Outcome<T: Equatable>: Equatable, CustomStringConvertible {
        case value(T)
        case error(String)

        var description: String {
            switch self {
            case .value(let value): "value \(value)"
            case .error(let text): "error \(text)"
            }
        }
    }

    /// Which way the fast path must go.
    enum Path {
        /// TapeDecoding returns the value.
        case fast
        /// TapeDecoding declines (nil) and JSONDecoder decides.
        case fallback
    }

    /// `Coder.default.jsonDecoder`'s outcome under the key matching rule (the fallback of `Coder.decode`).
    static func reference<T: Decodable & Equatable>(_ type: T.Type, _ data: Data, at path: String) -> Outcome<T> {
        do {
            return .value(try Coder.default.decodeMatchingKeys(type, from: data, at: path))
        } catch {
            return .error(String(describing: error))
        }
    }

    /// Plain `Coder.default.jsonDecoder`'s outcome.
    static func plain<T: Decodable & Equatable>(_ type: T.Type, _ data: Data, at path: String) -> Outcome<T> {
        do {
            return .value(try Coder.default.jsonDecoder.decode(type, from: data, at: path))
        } catch {
            return .error(String(describing: error))
        }
    }

    /// `Coder.default.decode`'s outcome.
    static func coder<T: Decodable & Equatable>(_ type: T.Type, _ data: Data, at path: String) -> Outcome<T> {
        do {
            return .value(try Coder.default.decode(type, from: data, at: path))
        } catch {
            return .error(String(describing: error))
        }
    }

    /// Expects `json` to decode as `type` at `path` through `expected` (when given) with JSONDecoder's outcome;
    /// returns that outcome for further checks.
    /// Unless `keysAsWritten` (the model asks for a key spelled as the JSON spells it, which plain `JSONDecoder`
    /// does not match under its snake_case strategy), that is also plain `JSONDecoder`'s outcome.
    @discardableResult
    static func expectSame<T: Decodable & Equatable>(
        _ type: T.Type, _ json: String, at path: String = "", _ expected: Path? = nil, keysAsWritten: Bool = false,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> Outcome<T> {
        expectSame(type, Data(json.utf8), at: path, expected, keysAsWritten: keysAsWritten, sourceLocation: sourceLocation)
    }

    /// ``expectSame(_:_:at:_:sourceLocation:)`` for raw bytes.
    @discardableResult
    static func expectSame<T: Decodable & Equatable>(
        _ type: T.Type, _ data: Data, at path: String = "", _ expected: Path? = nil, keysAsWritten: Bool = false,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> Outcome<T> {
        let reference = reference(type, data, at: path)
        if !keysAsWritten {
            #expect(reference == plain(type, data, at: path), "the key matching rule changed the outcome", sourceLocation: sourceLocation)
        }
        let fast = TapeDecoding.decode(type, from: data, at: path)
        switch expected {
        case .fast: #expect(fast != nil, "the fast path declined", sourceLocation: sourceLocation)
        case .fallback: #expect(fast == nil, "the fast path decoded \(String(describing: fast))", sourceLocation: sourceLocation)
        case nil: break
        }
        if let fast {
            #expect(.value(fast) == reference, sourceLocation: sourceLocation)
        }
        #expect(coder(type, data, at: path) == reference, sourceLocation: sourceLocation)
        return reference
    }
}
