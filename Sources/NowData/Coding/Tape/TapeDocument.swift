import Foundation
internal import SimdJSON

/// A parsed document being decoded by ``TapeDecoder``s: the tape, and whether `JSONDecoder` must decide instead.
final class TapeDocument {
    let tape: JSONTape
    /// The values, the root first.
    let entries: UnsafePointer<TapeEntry>
    /// Set when decoding met something that only `JSONDecoder` decides (a fractional number read as an integer,
    /// a date it reads its own way); the caller then decodes the document with `JSONDecoder` instead.
    var needsFoundation = false

    /// The document of `data`; nil when simdjson does not accept it.
    init?(_ data: Data) {
        guard let tape = JSONTape(data) else { return nil }
        self.tape = tape
        entries = tape.entries
    }

    /// The UTF-8 bytes of the string entry at `index`.
    func bytes(at index: Int) -> UnsafeBufferPointer<UInt8> {
        entries[index].bytes
    }

    /// The string entry at `index`.
    func string(at index: Int) -> String {
        String(decoding: entries[index].bytes, as: UTF8.self)
    }

    /// The index of the value of the first member of the object at `index` whose key `.convertFromSnakeCase` turns
    /// into `camelKey`; nil when there is none. The first such member wins, as with `JSONDecoder`.
    func member(_ camelKey: String, inObjectAt index: Int) -> Int? {
        var camelKey = camelKey
        return camelKey.withUTF8 { camel in
            // The conversion keeps a key's first byte, so most keys are told apart by it alone.
            let firstByte = camel.first
            let end = Int(entries[index].next)
            var key = index + 1
            while key < end {
                let entry = entries[key]
                if entry.isLowercaseIdentifier {
                    let keyBytes = entry.bytes
                    if keyBytes.first == firstByte, SnakeCase.converts(keyBytes, to: camel) {
                        return key + 1
                    }
                } else if SnakeCase.camelCase(string(at: key)).utf8.elementsEqual(camel) {
                    return key + 1
                }
                key = Int(entries[key + 1].next)
            }
            return nil
        }
    }
}
