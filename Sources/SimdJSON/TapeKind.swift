/// The kind of a ``TapeEntry``, in the order of `json_tape_kind` in `CJSONTape.h`.
package enum TapeKind: UInt8 {
    case null
    case `false`
    case `true`
    /// A number written without fraction or exponent that fits in `Int64`.
    case int64
    /// A number written without fraction or exponent, above `Int64.max`, that fits in `UInt64`.
    case uint64
    /// Any other number.
    case double
    /// A string.
    case string
    /// An array, followed on the tape by its elements.
    case array
    /// An object, followed on the tape by its members: each a key (a string) then its value.
    case object
}
