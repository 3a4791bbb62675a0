import Foundation

/// A JSON value with ordered object keys, written without Foundation's serializer (fast and deterministic).
enum JSONValue: Sendable {
    case string(String)
    case object([(String, JSONValue)])
    case array([JSONValue])
    case number(Int)
    case null

    /// The UTF-8 JSON text.
    var data: Data {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256)
        write(to: &bytes)
        return Data(bytes)
    }

    private func write(to bytes: inout [UInt8]) {
        switch self {
        case .null:
            bytes.append(contentsOf: "null".utf8)
        case .number(let number):
            bytes.append(contentsOf: String(number).utf8)
        case .string(let text):
            Self.write(text, to: &bytes)
        case .array(let items):
            bytes.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                item.write(to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                Self.write(key, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                value.write(to: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private static func write(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        if !text.utf8.contains(where: { $0 < 32 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            bytes.append(contentsOf: text.utf8)
            bytes.append(UInt8(ascii: "\""))
            return
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [92, 34])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [92, 92])
            case 10: bytes.append(contentsOf: [92, UInt8(ascii: "n")])
            case 13: bytes.append(contentsOf: [92, UInt8(ascii: "r")])
            case 9: bytes.append(contentsOf: [92, UInt8(ascii: "t")])
            case 0..<32:
                bytes.append(contentsOf: "\\u00".utf8)
                bytes.append(hexDigits[Int(byte >> 4)])
                bytes.append(hexDigits[Int(byte & 15)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
