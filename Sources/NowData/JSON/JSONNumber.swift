import Foundation

/// A JSON number that keeps the text it was written with, so that `2800` read and written back stays `2800` and
/// `0.10` stays `0.10`.
///
/// Two numbers are equal when their values are, whatever their text: `1`, `1.0` and `1e0` are one number.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    /// The number as JSON text: `2800`, `-0.5`, `1e-7`.
    public let text: String

    /// A number from JSON text; nil when `text` is not a JSON number.
    public init?(text: String) {
        guard Self.isNumber(text) else { return nil }
        self.text = text
    }

    /// An integer.
    public init<Integer: BinaryInteger>(_ value: Integer) {
        text = String(value)
    }

    /// A finite number, written without a needless `.0` (`2800`, `2.5`); nil for infinity and NaN, which JSON
    /// cannot hold.
    public init?(_ value: Double) {
        guard value.isFinite else { return nil }
        if value == value.rounded(), abs(value) < 1e15 {
            text = String(Int(value))
        } else {
            text = String(value)
        }
    }

    /// The value as a `Double` (rounded to the nearest one).
    public var double: Double { Double(text) ?? 0 }

    /// The value as an `Int` when it is a whole number that fits (`2800`, `2.8e3`); nil otherwise.
    public var int: Int? {
        if let value = Int(text) { return value }
        let value = double
        guard value == value.rounded(), let exact = Int(exactly: value) else { return nil }
        return exact
    }

    public var description: String { text }

    public static func == (lhs: JSONNumber, rhs: JSONNumber) -> Bool {
        if lhs.text == rhs.text { return true }
        if let left = Int(lhs.text), let right = Int(rhs.text) { return left == right }
        return lhs.double == rhs.double
    }

    public func hash(into hasher: inout Hasher) {
        if let whole = int {
            hasher.combine(whole)
        } else {
            hasher.combine(double)
        }
    }

    /// Whether `text` follows JSON's number grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    private static func isNumber(_ text: String) -> Bool {
        var bytes = text.utf8[...]
        func digits() -> Int {
            let count = bytes.prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }.count
            bytes = bytes.dropFirst(count)
            return count
        }
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        if bytes.first == UInt8(ascii: "0") {
            bytes = bytes.dropFirst()
        } else if digits() == 0 {
            return false
        }
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            guard digits() > 0 else { return false }
        }
        if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
            guard digits() > 0 else { return false }
        }
        return bytes.isEmpty
    }
}
