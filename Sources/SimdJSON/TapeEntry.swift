/// One value of a ``JSONTape``, laid out exactly as `json_tape_entry` in `CJSONTape.h` (the header checks the
/// offsets at compile time and `TapeLayoutTests` checks this side), so that the tape is read as plain Swift memory.
package struct TapeEntry {
    /// What the value is.
    package let kind: TapeKind
    /// A string's length in bytes, an array's number of elements or an object's number of members.
    package let count: UInt32
    /// The index of the entry after this value and its contents.
    package let next: UInt32
    /// The payload's bits: an integer, a double's bits, or the address of a string's bytes (read by NowData, in
    /// its own module so that reading them is inlined into its decoding loops).
    package let payload: UInt64
}
