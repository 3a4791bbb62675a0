internal import CJSONTape
import Foundation

/// A JSON document parsed by simdjson into a flat tape of values (see `CJSONTape.h`): the one JSON parser of the
/// package. NowData decodes models and ``TapeEntry`` values straight from it.
package final class JSONTape {
    /// The deepest nesting parsed. `JSONDecoder` refuses documents nested deeper than 512 levels; deeper ones than
    /// this are left to it, so both agree on what is too deep.
    package static let maximumDepth = 500

    private let document: OpaquePointer
    /// The values, the root first.
    package let entries: UnsafePointer<TapeEntry>
    /// The number of entries.
    package let count: Int

    /// Parses `data`; nil when simdjson does not accept it (not JSON, not UTF-8, nested deeper than
    /// ``maximumDepth``, a number out of range).
    package init?(_ data: Data) {
        let parsed = data.withUnsafeBytes { bytes in
            json_tape_parse(bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count, Self.maximumDepth)
        }
        guard let parsed, let entries = json_tape_entries(parsed) else { return nil }
        document = parsed
        self.entries = UnsafeRawPointer(entries).assumingMemoryBound(to: TapeEntry.self)
        count = json_tape_count(parsed)
    }

    deinit {
        json_tape_free(document)
    }
}
