internal import SimdJSON
import Foundation

/// Where a model's keys are in the objects of one shape: the same keys, in the same order, at the same places on
/// the tape, as the rows of a Table API page are. The first object of a shape resolves each key the model asks
/// for by looking through the members (``TapeDocument/member(_:inObjectAt:)``); the other objects of that shape
/// reuse the answer, which depends on nothing else, after checking their keys byte for byte.
final class TapeKeyPlan {
    /// The keys of the shape, their bytes one after the other.
    private let keyBytes: [UInt8]
    /// Each member of the shape: where its key's bytes end in ``keyBytes``, and its key's entry, counted from the
    /// object's.
    private let members: [(bytesEnd: Int, key: Int)]
    /// The number of entries an object of the shape spans with its contents.
    private let span: Int
    // Only the decoding thread touches these, one access at a time: no run-time exclusivity checks.
    /// The keys asked for so far, as their `stringValue`s, in the order they were first asked for, with the entry
    /// of their values counted from the object's (nil: the shape has no such member).
    @exclusivity(unchecked) private var lookups: [(name: String, value: Int?)] = []
    /// The lookup the next key is most likely to be: a model asks for its keys in the same order for every object.
    @exclusivity(unchecked) private var cursor = 0

    /// The plan of the shape of the object at `object`.
    init(objectAt object: Int, in tape: TapeDocument) {
        let entries = tape.entries
        var keyBytes: [UInt8] = []
        var members: [(bytesEnd: Int, key: Int)] = []
        members.reserveCapacity(Int(entries[object].count))
        let end = Int(entries[object].next)
        var key = object + 1
        while key < end {
            keyBytes.append(contentsOf: entries[key].bytes)
            members.append((keyBytes.count, key - object))
            key = Int(entries[key + 1].next)
        }
        self.keyBytes = keyBytes
        self.members = members
        span = end - object
    }

    /// Whether the object at `object` has this plan's shape.
    func fits(objectAt object: Int, in tape: TapeDocument) -> Bool {
        let entries = tape.entries
        guard Int(entries[object].next) - object == span, Int(entries[object].count) == members.count else {
            return false
        }
        return keyBytes.withUnsafeBufferPointer { shape in
            var start = 0
            var key = object + 1
            for member in members {
                let entry = entries[key]
                let length = member.bytesEnd - start
                guard key - object == member.key, Int(entry.count) == length else { return false }
                if length > 0 {
                    guard let bytes = entry.bytes.baseAddress, let expected = shape.baseAddress,
                        memcmp(bytes, expected + start, length) == 0
                    else { return false }
                }
                start = member.bytesEnd
                key = Int(entries[key + 1].next)
            }
            return true
        }
    }

    /// The entry of the value of the first member whose key matches `name` (as ``TapeDocument/member(_:inObjectAt:)``
    /// matches it) in the object at `object`, which has this plan's shape; nil when there is none.
    func value(_ name: String, inObjectAt object: Int, in tape: TapeDocument) -> Int? {
        var index = cursor
        if index >= lookups.count || lookups[index].name != name {
            if let known = lookups.firstIndex(where: { $0.name == name }) {
                index = known
            } else {
                index = lookups.count
                lookups.append((name, tape.member(name, inObjectAt: object).map { $0 - object }))
            }
        }
        cursor = index + 1
        return lookups[index].value.map { object + $0 }
    }
}
