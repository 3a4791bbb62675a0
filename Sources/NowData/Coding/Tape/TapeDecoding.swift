internal import SimdJSON
import Foundation

/// ``Coder/default``'s fast decoding: the document parsed by simdjson and decoded from its tape.
enum TapeDecoding {
    /// `type` decoded from the value at the dot-separated `path` of `data`, exactly as ``Coder/default``'s
    /// `JSONDecoder` would decode it; nil when that decoder must decide (the document is not what simdjson
    /// accepts, the path or the value does not decode, or the value holds something `JSONDecoder` reads its own
    /// way), so that its result, and its errors, are the ones callers get.
    static func decode<T: Decodable>(_ type: T.Type, from data: Data, at path: String) -> T? {
        guard let tape = TapeDocument(data) else { return nil }
        var entry = 0
        var keys: [any CodingKey] = []
        if !path.isEmpty {
            for component in path.split(separator: ".", omittingEmptySubsequences: false) {
                guard let (next, key) = step(String(component), from: entry, in: tape) else { return nil }
                entry = next
                keys.append(key)
            }
        }
        guard let value = try? TapeDecoder(tape: tape, index: entry, codingPath: keys).decodeCurrent(type),
            !tape.needsFoundation
        else { return nil }
        return value
    }

    /// The entry that `component` names in the value at `entry`, and its coding key, found as
    /// `JSONDecoder.decode(_:from:at:)` finds it: an element of an array for a number, else an object's member.
    private static func step(_ component: String, from entry: Int, in tape: TapeDocument) -> (Int, any CodingKey)? {
        switch tape.entries[entry].kind {
        case .array:
            guard let position = Int(component), position >= 0, position < Int(tape.entries[entry].count) else {
                return nil
            }
            var element = entry + 1
            for _ in 0..<position {
                element = Int(tape.entries[element].next)
            }
            return (element, ElementKey(position))
        case .object:
            guard !component.isEmpty else { return nil }
            let key = SnakeCase.camelCase(component)
            return tape.member(key, inObjectAt: entry).map { ($0, PathKey(stringValue: key)) }
        default:
            return nil
        }
    }
}
