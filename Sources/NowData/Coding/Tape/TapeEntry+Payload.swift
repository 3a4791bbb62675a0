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
}
