import Foundation

/// Reads JSON bytes straight into a ``Value``: the Table API's answers, parsed once, without going through
/// Foundation's objects (several times faster than `JSONSerialization` plus a conversion on Linux).
struct JSONReader {
    /// The deepest nesting of arrays and objects accepted.
    static let maximumDepth = 512

    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0

    /// Parses one JSON value (with surrounding white space) from `data`.
    static func value(from data: Data) throws(JSONReaderError) -> Value {
        var reader = JSONReader(bytes: Array(data))
        let value = try reader.readValue()
        reader.skipSpaces()
        guard reader.index == reader.bytes.count else { throw reader.error("unexpected text after the value") }
        return value
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private mutating func readValue() throws(JSONReaderError) -> Value {
        skipSpaces()
        guard index < bytes.count else { throw error("unexpected end of the text") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try readObject()
        case UInt8(ascii: "["): return try readArray()
        case UInt8(ascii: "\""): return .string(try readString())
        case UInt8(ascii: "t"): return try readLiteral("true", .bool(true))
        case UInt8(ascii: "f"): return try readLiteral("false", .bool(false))
        case UInt8(ascii: "n"): return try readLiteral("null", .null)
        default: return try readNumber()
        }
    }

    private mutating func readObject() throws(JSONReaderError) -> Value {
        try enter()
        defer { depth -= 1 }
        index += 1
        var fields: [String: Value] = [:]
        skipSpaces()
        if peek(UInt8(ascii: "}")) {
            index += 1
            return .map(fields)
        }
        while true {
            skipSpaces()
            guard peek(UInt8(ascii: "\"")) else { throw error("expected a key in quotes") }
            let key = try readString()
            skipSpaces()
            guard peek(UInt8(ascii: ":")) else { throw error("expected ':' after a key") }
            index += 1
            fields[key] = try readValue()
            skipSpaces()
            if peek(UInt8(ascii: ",")) {
                index += 1
            } else if peek(UInt8(ascii: "}")) {
                index += 1
                return .map(fields)
            } else {
                throw error("expected ',' or '}' in an object")
            }
        }
    }

    private mutating func readArray() throws(JSONReaderError) -> Value {
        try enter()
        defer { depth -= 1 }
        index += 1
        var items: [Value] = []
        skipSpaces()
        if peek(UInt8(ascii: "]")) {
            index += 1
            return .list(items)
        }
        while true {
            items.append(try readValue())
            skipSpaces()
            if peek(UInt8(ascii: ",")) {
                index += 1
            } else if peek(UInt8(ascii: "]")) {
                index += 1
                return .list(items)
            } else {
                throw error("expected ',' or ']' in an array")
            }
        }
    }

    private mutating func readString() throws(JSONReaderError) -> String {
        index += 1
        let start = index
        // Fast path: no escape before the closing quote.
        while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\") { index += 1 }
        guard index < bytes.count else { throw error("unterminated string") }
        if bytes[index] == UInt8(ascii: "\"") {
            defer { index += 1 }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }
        var utf8 = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(decoding: utf8, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { throw error("unterminated escape") }
                let escaped = bytes[index]
                index += 1
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escaped)
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "u"): utf8 += try readUnicodeEscape()
                default: throw error("unknown escape")
                }
            default:
                utf8.append(byte)
            }
        }
        throw error("unterminated string")
    }

    /// The UTF-8 of a `\uXXXX` escape (the `\u` read), joining a surrogate pair.
    private mutating func readUnicodeEscape() throws(JSONReaderError) -> [UInt8] {
        var code = try readHex4()
        if (0xD800..<0xDC00).contains(code), index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
            bytes[index + 1] == UInt8(ascii: "u")
        {
            index += 2
            let low = try readHex4()
            if (0xDC00..<0xE000).contains(low) {
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            }
        }
        let scalar = Unicode.Scalar(code) ?? "\u{FFFD}"
        return Array(String(Character(scalar)).utf8)
    }

    private mutating func readHex4() throws(JSONReaderError) -> UInt32 {
        guard index + 4 <= bytes.count,
            let code = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
        else { throw error("bad \\u escape") }
        index += 4
        return code
    }

    private mutating func readNumber() throws(JSONReaderError) -> Value {
        let start = index
        var isInteger = true
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"): break
            case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "+"): isInteger = false
            default:
                if index == start { throw error("unexpected character") }
                return try number(start, isInteger)
            }
            index += 1
        }
        guard index > start else { throw error("unexpected end of the text") }
        return try number(start, isInteger)
    }

    private func number(_ start: Int, _ isInteger: Bool) throws(JSONReaderError) -> Value {
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if isInteger, let value = Int(text) { return .int(value) }
        guard let value = Double(text) else { throw error("'\(text)' is not a number") }
        return .double(value)
    }

    private mutating func readLiteral(_ word: String, _ value: Value) throws(JSONReaderError) -> Value {
        for byte in word.utf8 {
            guard index < bytes.count, bytes[index] == byte else { throw error("unexpected character") }
            index += 1
        }
        return value
    }

    private mutating func enter() throws(JSONReaderError) {
        depth += 1
        guard depth <= Self.maximumDepth else { throw error("nesting deeper than \(Self.maximumDepth) levels") }
    }

    private func peek(_ byte: UInt8) -> Bool {
        index < bytes.count && bytes[index] == byte
    }

    private mutating func skipSpaces() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    private func error(_ message: String) -> JSONReaderError {
        JSONReaderError(message: message, offset: index)
    }
}
