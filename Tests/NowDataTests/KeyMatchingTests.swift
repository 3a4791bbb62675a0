import Foundation
import Testing

@testable import NowData

/// A model's keys match the JSON's as written or as the key strategy converts them, on the fast path, on the
/// `JSONDecoder` fallback and with a `.custom` coder, with the same values and the same errors.
@Suite struct KeyMatchingTests {
    struct Plain: Codable, Equatable {
        var sysId: String
        var shortDescription: String
        var callerId: Caller
    }

    struct WireNames: Codable, Equatable {
        var sysId: String
        var shortDescription: String
        var callerId: Caller

        enum CodingKeys: String, CodingKey {
            case sysId = "sys_id", shortDescription = "short_description", callerId = "caller_id"
        }
    }

    struct Caller: Codable, Equatable {
        var value: String
    }

    struct DotWalked: Codable, Equatable {
        var callerName: String
        var userSysId: String

        enum CodingKeys: String, CodingKey {
            case callerName = "caller_id.name", userSysId = "user.sys_id"
        }
    }

    /// Dot-walked keys spelled as the snake_case strategy converts them (Foundation capitalizes after a dot).
    struct CamelDotWalked: Codable, Equatable {
        var callerName: String
        var userSysId: String

        enum CodingKeys: String, CodingKey {
            case callerName = "callerId.Name", userSysId = "user.sysId"
        }
    }

    static let page = Data(
        #"{"result":[{"sys_id":"a1","short_description":"Printer","caller_id":{"value":"u1"},"caller_id.name":"Abel","user.sys_id":"u2"}]}"#
            .utf8)

    /// The coders to compare: the fast path, the JSONDecoder fallback (a value the fast path leaves to it), and a
    /// `.custom` coder with the snake_case strategies.
    static var coders: [(String, Coder)] {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = .sortedKeys
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return [("default", .default), ("custom", .custom(encoder, decoder))]
    }

    @Test func bothFormsOfCodingKeysDecodeAlike() throws {
        for (name, coder) in Self.coders {
            let plain = try coder.decode([Plain].self, from: Self.page, at: "result")
            let wire = try coder.decode([WireNames].self, from: Self.page, at: "result")
            #expect(plain == [Plain(sysId: "a1", shortDescription: "Printer", callerId: Caller(value: "u1"))], "\(name)")
            #expect(wire.map(\.sysId) == ["a1"] && wire.map(\.callerId) == plain.map(\.callerId), "\(name)")
            #expect(try coder.decode([DotWalked].self, from: Self.page, at: "result")
                == [DotWalked(callerName: "Abel", userSysId: "u2")], "\(name)")
            #expect(try coder.decode([CamelDotWalked].self, from: Self.page, at: "result")
                == [CamelDotWalked(callerName: "Abel", userSysId: "u2")], "\(name)")
        }
        #expect(TapeDecoding.decode([WireNames].self, from: Self.page, at: "result") != nil)
        #expect(TapeDecoding.decode([DotWalked].self, from: Self.page, at: "result") != nil)
    }

    @Test func theFallbackMatchesKeysToo() throws {
        // A Decimal is left to JSONDecoder; the wire-name keys around it still match.
        struct Priced: Decodable, Equatable {
            var sysId: String
            var amount: Decimal
            enum CodingKeys: String, CodingKey { case sysId = "sys_id", amount = "u_amount" }
        }
        let data = Data(#"{"result":{"sys_id":"a1","u_amount":2.5}}"#.utf8)
        #expect(TapeDecoding.decode(Priced.self, from: data, at: "result") == nil)
        #expect(try Coder.default.decode(Priced.self, from: data, at: "result") == Priced(sysId: "a1", amount: 2.5))
    }

    @Test func errorsAreTheSameOnEveryPathAndNameTheModelsKey() throws {
        let missing = Data(#"{"result":[{"sys_id":"a1","caller_id":{"value":"u1"}}]}"#.utf8)
        let wrongType = Data(#"{"result":[{"sys_id":"a1","short_description":7,"caller_id":{"value":"u1"}}]}"#.utf8)
        func message<T: Decodable>(_ type: T.Type, _ data: Data, _ coder: Coder) -> String {
            do {
                _ = try NowTableService.decode(type, from: data, at: "result", coder: coder)
                return "decoded"
            } catch {
                return String(describing: error)
            }
        }
        for (name, coder) in Self.coders {
            #expect(message([Plain].self, missing, coder)
                == "cannot decode model at result[0]: key 'shortDescription' not found", "\(name)")
            #expect(message([WireNames].self, missing, coder)
                == "cannot decode model at result[0]: key 'short_description' not found", "\(name)")
            #expect(message([Plain].self, wrongType, coder)
                == "cannot decode model at result[0].shortDescription: Expected to decode String but found number instead.", "\(name)")
            #expect(message([WireNames].self, wrongType, coder)
                == "cannot decode model at result[0].short_description: Expected to decode String but found number instead.", "\(name)")
        }
    }

    @Test func bothFormsEncodeAlike() throws {
        let plain = Plain(sysId: "a1", shortDescription: "Printer", callerId: Caller(value: "u1"))
        let wire = WireNames(sysId: "a1", shortDescription: "Printer", callerId: Caller(value: "u1"))
        for (name, coder) in Self.coders {
            let plainText = String(decoding: try coder.jsonEncoder.encode(plain), as: UTF8.self)
            #expect(plainText == #"{"caller_id":{"value":"u1"},"short_description":"Printer","sys_id":"a1"}"#, "\(name)")
            #expect(String(decoding: try coder.jsonEncoder.encode(wire), as: UTF8.self) == plainText, "\(name)")
        }
    }
}
