import Foundation

/// Writes JSON text straight into a byte buffer (no intermediate objects): the Table API's bodies are built with
/// it, so that rendering a page of records stays close to the cost of reading it from SQLite.
struct JSONWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    /// The text written so far.
    var data: Data { Data(bytes) }

    /// Appends JSON syntax or a literal (`{`, `"result":[`, `null`, a number) as is.
    mutating func raw(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    /// Appends a JSON string, escaped.
    mutating func string(_ text: String) {
        bytes.append(Self.quote)
        var text = text
        let done = text.withUTF8 { buffer -> Bool in
            guard !buffer.contains(where: Self.needsEscape) else { return false }
            bytes.append(contentsOf: buffer)
            return true
        }
        if !done {
            for byte in text.utf8 { escape(byte) }
        }
        bytes.append(Self.quote)
    }

    /// Appends `"key":`.
    mutating func key(_ key: String) {
        string(key)
        bytes.append(UInt8(ascii: ":"))
    }

    private static let quote = UInt8(ascii: "\"")
    private static let backslash = UInt8(ascii: "\\")
    private static let hexDigits = Array("0123456789abcdef".utf8)

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 32 || byte == quote || byte == backslash
    }

    private mutating func escape(_ byte: UInt8) {
        switch byte {
        case Self.quote, Self.backslash:
            bytes.append(Self.backslash)
            bytes.append(byte)
        case 10:
            bytes.append(Self.backslash)
            bytes.append(UInt8(ascii: "n"))
        case 13:
            bytes.append(Self.backslash)
            bytes.append(UInt8(ascii: "r"))
        case 9:
            bytes.append(Self.backslash)
            bytes.append(UInt8(ascii: "t"))
        case 0..<32:
            bytes.append(contentsOf: "\\u00".utf8)
            bytes.append(Self.hexDigits[Int(byte >> 4)])
            bytes.append(Self.hexDigits[Int(byte & 15)])
        default:
            bytes.append(byte)
        }
    }
}
