internal import CJSONTape
import Foundation

/// A JSON document parsed by simdjson into a flat tape of values (see `CJSONTape.h`), which ``TapeDecoder`` reads
/// in place.
final class JSONTape {
    /// The deepest nesting parsed here. `JSONDecoder` refuses documents nested deeper than 512 levels; deeper ones
    /// than this are left to it, so both agree on what is too deep.
    private static let maximumDepth = 500

    private let document: OpaquePointer
    /// The values, the root first.
    let entries: UnsafePointer<json_tape_entry>
    /// Set when decoding met something that only `JSONDecoder` decides (a fractional number read as an integer,
    /// a date it reads its own way); the caller then decodes the document with `JSONDecoder` instead.
    var needsFoundation = false

    /// Parses `data`; nil when simdjson does not accept it (not JSON, not UTF-8, too deep, a number out of range).
    init?(_ data: Data) {
        let parsed = data.withUnsafeBytes { bytes in
            json_tape_parse(bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count, Self.maximumDepth)
        }
        guard let parsed, let entries = json_tape_entries(parsed) else { return nil }
        document = parsed
        self.entries = entries
    }

    deinit {
        json_tape_free(document)
    }

    /// The UTF-8 bytes of the string entry at `index`.
    func bytes(at index: Int) -> UnsafeBufferPointer<UInt8> {
        let entry = entries[index]
        return UnsafeRawPointer(entry.payload.string).map {
            UnsafeBufferPointer(start: $0.assumingMemoryBound(to: UInt8.self), count: Int(entry.count))
        } ?? UnsafeBufferPointer(start: nil, count: 0)
    }

    /// The string entry at `index`.
    func string(at index: Int) -> String {
        String(decoding: bytes(at: index), as: UTF8.self)
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
                if entry.lowercase_identifier {
                    if entry.count > 0 ? firstByte == UInt8(bitPattern: entry.payload.string[0]) : camel.isEmpty,
                        SnakeCase.converts(bytes(at: key), to: camel)
                    {
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
