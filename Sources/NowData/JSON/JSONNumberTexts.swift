import Foundation

/// The texts of a document's numbers, in document order, read from its bytes when first needed: the tape keeps a
/// number's value, not its text, and the numbers come on the tape in the same order as in the text.
struct JSONNumberTexts {
    private let data: Data
    private var texts: [String]?
    /// How many numbers have been read from the tape so far.
    private var read = 0

    init(_ data: Data) {
        self.data = data
    }

    /// Moves past a number whose text is known without the document's.
    mutating func skip() {
        read += 1
    }

    /// The text of the next number on the tape.
    mutating func next() -> String? {
        if texts == nil { texts = Self.scan(data) }
        defer { read += 1 }
        guard let texts, read < texts.count else { return nil }
        return texts[read]
    }

    /// The number tokens of valid JSON text, in order: everything outside strings that starts with `-` or a digit.
    private static func scan(_ data: Data) -> [String] {
        data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var texts: [String] = []
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    index += 1
                    while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                        index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                    }
                    index += 1
                } else if byte == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                    let start = index
                    while index < bytes.count, isNumberByte(bytes[index]) { index += 1 }
                    texts.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
                } else {
                    index += 1
                }
            }
            return texts
        }
    }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."),
            UInt8(ascii: "e"), UInt8(ascii: "E"):
            true
        default: false
        }
    }
}
