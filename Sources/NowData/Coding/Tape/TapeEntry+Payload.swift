internal import SimdJSON

extension TapeEntry {
    /// The number of an `int64` entry.
    var int64: Int64 { Int64(bitPattern: payload) }
    /// The number of a `uint64` entry.
    var uint64: UInt64 { payload }
    /// The number of a `double` entry.
    var double: Double { Double(bitPattern: payload) }

    /// The UTF-8 bytes of a `string` entry (unescaped, validated).
    var bytes: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: UnsafePointer(bitPattern: UInt(payload)), count: Int(count))
    }

    /// The text of a `string` entry (a value or a key), copied without checking its UTF-8 again: simdjson's parse
    /// has validated the document's UTF-8, and the escapes it decodes give valid UTF-8 only (it refuses a lone
    /// surrogate). `String(decoding:as:)` would check every byte again, one at a time once a byte is not ASCII.
    var string: String {
        let bytes = bytes
        guard #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) else {
            return String(decoding: bytes, as: UTF8.self)
        }
        return unsafe String(copying: UTF8Span(unchecked: bytes.span, isKnownASCII: Self.isASCII(bytes)))
    }

    /// Whether every byte is below 0x80, read 32 then 8 at a time: a string known to be ASCII keeps the standard
    /// library's fast paths (counting, comparing, indexing).
    private static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        let high: UInt64 = 0x8080_8080_8080_8080
        var bits: UInt64 = 0
        var offset = 0
        while offset + 32 <= bytes.count {
            let block =
                raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                | raw.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)
                | raw.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self)
                | raw.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self)
            guard block & high == 0 else { return false }
            offset += 32
        }
        while offset + 8 <= bytes.count {
            bits |= raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            offset += 8
        }
        while offset < bytes.count {
            bits |= UInt64(base[offset])
            offset += 1
        }
        return bits & high == 0
    }
}
