internal import SimdJSON
import Foundation

/// A `[String: Value]` dictionary, which `JSONDecoder` decodes with its keys as sent, whatever its key strategy.
protocol TapeDecodableDictionary {
    init(tapeDecoder decoder: TapeDecoder) throws
}

extension Dictionary: TapeDecodableDictionary where Key == String, Value: Decodable {
    /// The members of the decoder's current object; of two equal keys, the first wins, as with `JSONDecoder`,
    /// which decodes every member's value (a later duplicate that does not decode fails the dictionary).
    init(tapeDecoder decoder: TapeDecoder) throws {
        let object = decoder.index
        guard decoder.kind(at: object) == .object else {
            throw decoder.mismatch(Self.self, at: object, codingPath: decoder.codingPath)
        }
        let tape = decoder.tape
        self.init(minimumCapacity: Int(tape.entries[object].count))
        var member = object + 1
        while member < Int(tape.entries[object].next) {
            let key = tape.string(at: member)
            let value = try decoder.decode(Value.self, at: member + 1, key: PathKey(stringValue: key))
            if self[key] == nil {
                self[key] = value
            }
            member = Int(tape.entries[member + 1].next)
        }
    }
}
