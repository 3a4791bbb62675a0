/// One value of a ``JSONTape``, laid out exactly as `json_tape_entry` in `CJSONTape.h` (the header checks the
/// offsets at compile time and `TapeLayoutTests` checks this side), so that the tape is read as plain Swift memory.
package struct TapeEntry {
    /// What the value is.
    package let kind: TapeKind
    /// Whether the entry is an object's key made only of a-z, 0-9 and _ (as ServiceNow's field names are).
    package let isLowercaseIdentifier: Bool
    /// A string's length in bytes, an array's number of elements or an object's number of members.
    package let count: UInt32
    /// The index of the entry after this value and its contents.
    package let next: UInt32
    /// The payload's bits: an integer, a double, or the address of a string's bytes.
    @usableFromInline let payload: UInt64

    /// The number of an ``TapeKind/int64`` entry.
    @inlinable package var int64: Int64 { Int64(bitPattern: payload) }
    /// The number of a ``TapeKind/uint64`` entry.
    @inlinable package var uint64: UInt64 { payload }
    /// The number of a ``TapeKind/double`` entry.
    @inlinable package var double: Double { Double(bitPattern: payload) }

    /// The UTF-8 bytes of a ``TapeKind/string`` entry (unescaped, validated).
    @inlinable package var bytes: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: UnsafePointer(bitPattern: UInt(payload)), count: Int(count))
    }
}
