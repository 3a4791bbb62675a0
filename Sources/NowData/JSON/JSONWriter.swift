import Foundation

/// Writes JSON text straight into a byte buffer (no intermediate objects): the package's one JSON writer. It writes
/// every ``JSONValue``, and the local instance's bodies are built with it, so that rendering a page of records stays
/// close to the cost of reading it from SQLite.
package struct JSONWriter {
    package private(set) var bytes: [UInt8] = []

    package init(capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    /// The text written so far.
    package var data: Data { Data(bytes) }

    /// Appends JSON syntax or a literal (`{`, `"result":[`, `null`) as is.
    package mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends bytes that are already JSON (a number's text) as is.
    package mutating func raw<Bytes: Collection<UInt8>>(_ json: Bytes) {
        bytes.append(contentsOf: json)
    }

    /// Appends bytes that are already JSON (a key written by ``encodedKey(_:)``) as is. Not generic, so that a
    /// caller in another module (the local instance renders every key with it) gets the specialized copy rather
    /// than the generic one, which looks up type metadata on every call.
    package mutating func raw(_ json: [UInt8]) {
        bytes.append(contentsOf: json)
    }

    /// Appends one byte of JSON syntax, such as `,`.
    package mutating func raw(_ byte: UInt8) {
        bytes.append(byte)
    }

    /// Appends a JSON string, escaped.
    package mutating func string(_ text: String) {
        let done = text.utf8.withContiguousStorageIfAvailable { buffer -> Bool in
            for byte in buffer where Self.needsEscape(byte) { return false }
            bytes.append(Self.quote)
            bytes.append(contentsOf: buffer)
            bytes.append(Self.quote)
            return true
        }
        guard done != true else { return }
        bytes.append(Self.quote)
        for byte in text.utf8 { escape(byte) }
        bytes.append(Self.quote)
    }

    /// Appends `"key":`.
    package mutating func key(_ key: String) {
        string(key)
        bytes.append(UInt8(ascii: ":"))
    }

    /// `"key":` as bytes, to write with ``raw(_:)-([UInt8])`` as often as needed.
    package static func encodedKey(_ key: String) -> [UInt8] {
        var writer = JSONWriter(capacity: key.utf8.count + 3)
        writer.key(key)
        return writer.bytes
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
