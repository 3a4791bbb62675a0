import Foundation
internal import SimdJSON

/// The keys of a JSON object in order, learned from one object and reused for the next objects with the same keys:
/// the records of one table, the `{link, value}` of every reference, come with the same keys answer after answer.
///
/// An object of a known shape is made by filling a copy of the shape's members (its keys with null values) in
/// place, through the members' own indexes, so that its keys are neither made into strings nor hashed again. That
/// rests on value semantics, not on how a dictionary lays out its storage: the copy is the same value as
/// ``members``, so their indexes are its indexes, and assigning a value through an index (`Dictionary.Values` is a
/// `MutableCollection`) keeps every index valid. `JSONValueTests.objectsOfALearnedShapeHoldEachValueUnderItsKey`
/// would see an index that did not hold (a value under another key, or the dictionary's trap).
final class JSONObjectShape: Sendable {
    /// The keys, in order.
    let keys: [String]
    /// The keys' UTF-8 bytes, one after the other.
    private let keyBytes: [UInt8]
    /// Where each key's bytes end in ``keyBytes``.
    private let keyEnds: [Int]
    /// Every key with a null value, in the order of ``keys``.
    let members: [String: JSONValue]
    /// The index of each key in ``members``, in the order of ``keys``.
    let indexes: [Dictionary<String, JSONValue>.Index]

    /// The shape of `object`, which has no repeated key.
    init(_ object: JSONObject) {
        keys = object.keys
        var bytes: [UInt8] = []
        var ends: [Int] = []
        var members: [String: JSONValue] = [:]
        members.reserveCapacity(keys.count)
        for var key in keys {
            key.withUTF8 { bytes.append(contentsOf: $0) }
            ends.append(bytes.count)
            members[key] = .null
        }
        keyBytes = bytes
        keyEnds = ends
        indexes = keys.map { key in members.index(forKey: key) ?? members.startIndex }
        self.members = members
    }

    /// Whether the object at `start` on a tape has exactly these keys, in this order.
    func matches(_ entries: UnsafePointer<TapeEntry>, objectAt start: Int) -> Bool {
        guard Int(entries[start].count) == keys.count else { return false }
        return keyBytes.withUnsafeBufferPointer { known in
            var member = start + 1
            var begin = 0
            for end in keyEnds {
                let key = entries[member]
                let length = Int(key.count)
                guard length == end - begin else { return false }
                if length > 0 {
                    guard let mine = known.baseAddress, let theirs = key.bytes.baseAddress,
                        memcmp(mine + begin, theirs, length) == 0
                    else { return false }
                }
                begin = end
                member = Int(entries[member + 1].next)
            }
            return true
        }
    }

    /// A number that two objects with the same keys in the same order share, to tell a shape seen before.
    static func fingerprint(_ entries: UnsafePointer<TapeEntry>, objectAt start: Int) -> UInt64 {
        // FNV-1a over each key's length and bytes.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        var member = start + 1
        for _ in 0..<entries[start].count {
            let key = entries[member]
            hash = (hash ^ UInt64(key.count)) &* 0x100_0000_01b3
            for byte in key.bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            member = Int(entries[member + 1].next)
        }
        return hash
    }
}
