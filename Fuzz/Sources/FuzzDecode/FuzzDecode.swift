// Coder.default's decoding, differential: any bytes are decoded into a few types, at the paths "" and "result",
// through the simdjson fast path (TapeDecoding) and through Coder.default.jsonDecoder. Whenever the fast path
// returns a value, JSONDecoder must return the same value; anything else traps with both results.
import Foundation
import FuzzSupport
@testable import NowData

/// Any JSON value, read through single-value tries as a hand-written model would; numbers keep their bits, so
/// that -0.0 and 0.0 differ.
indirect enum FuzzValue: Decodable, Equatable {
    case null, bool(Bool), integer(Int), number(UInt64), string(String), array([FuzzValue]), object([String: FuzzValue])

    init(from decoder: any Decoder) throws {
        let value = try decoder.singleValueContainer()
        if value.decodeNil() {
            self = .null
        } else if let bool = try? value.decode(Bool.self) {
            self = .bool(bool)
        } else if let integer = try? value.decode(Int.self) {
            self = .integer(integer)
        } else if let number = try? value.decode(Double.self) {
            self = .number(number.bitPattern)
        } else if let string = try? value.decode(String.self) {
            self = .string(string)
        } else if let array = try? value.decode([FuzzValue].self) {
            self = .array(array)
        } else {
            self = .object(try value.decode([String: FuzzValue].self))
        }
    }
}

/// A Table API record: snake_case keys, `@NowValue` fields in their three shapes, typed values.
struct FuzzRecord: Decodable, Equatable {
    var sysId: String?
    @NowValue var priority: Int?
    @NowValue var active: Bool?
    @NowValue var openedAt: Date?
    @NowValue var callerId: NowReference?
    var count: Int8?
    var total: UInt64?
    var ratio: Double?
    var link: URL?
    var tags: [String?]?
    var extra: [String: Int]?
}

/// Decodes `data` both ways and traps when the fast path's value is not JSONDecoder's.
func compareDecodings<T: Decodable & Equatable>(_ type: T.Type, _ data: Data, at path: String) {
    guard let fast = TapeDecoding.decode(type, from: data, at: path) else { return }
    let reference: String
    do {
        let value = try Coder.default.jsonDecoder.decode(type, from: data, at: path)
        if value == fast { return }
        reference = "value \(value)"
    } catch {
        reference = "error \(error)"
    }
    fatalError("\(T.self) at '\(path)': fast path \(fast), JSONDecoder \(reference)")
}

@main
enum FuzzDecode {
    static func main() {
        Fuzzer.run { start, count in
            let data = Data(Fuzzer.bytes(start, count))
            for path in ["", "result"] {
                compareDecodings(FuzzValue.self, data, at: path)
                compareDecodings([String: FuzzValue].self, data, at: path)
                compareDecodings(FuzzRecord.self, data, at: path)
                compareDecodings([FuzzRecord].self, data, at: path)
            }
            return 0
        }
    }
}
