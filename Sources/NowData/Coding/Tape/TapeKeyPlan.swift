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
            guard let expected = shape.baseAddress else { return members.isEmpty }
            var start = 0
            var key = object + 1
            for member in members {
                let entry = entries[key]
                let length = member.bytesEnd - start
                guard key - object == member.key, Int(entry.count) == length else { return false }
                if length > 0 {
                    guard let bytes = entry.bytes.baseAddress, Self.same(bytes, expected + start, count: length) else {
                        return false
                    }
                }
                start = member.bytesEnd
                key = Int(entries[key + 1].next)
            }
            return true
        }
    }

    /// Whether `count` bytes at two places are the same, compared a word at a time, the last word overlapping the
    /// one before (keys are short: a call to `memcmp` costs more than comparing them here).
    private static func same(_ left: UnsafePointer<UInt8>, _ right: UnsafePointer<UInt8>, count: Int) -> Bool {
        let left = UnsafeRawPointer(left)
        let right = UnsafeRawPointer(right)
        func same<Word: FixedWidthInteger>(_ word: Word.Type, at offset: Int) -> Bool {
            left.loadUnaligned(fromByteOffset: offset, as: Word.self)
                == right.loadUnaligned(fromByteOffset: offset, as: Word.self)
        }
        switch count {
        case 8...:
            var offset = 0
            while offset + 8 < count {
                guard same(UInt64.self, at: offset) else { return false }
                offset += 8
            }
            return same(UInt64.self, at: count - 8)
        case 4...: return same(UInt32.self, at: 0) && same(UInt32.self, at: count - 4)
        case 2...: return same(UInt16.self, at: 0) && same(UInt16.self, at: count - 2)
        case 1: return same(UInt8.self, at: 0)
        default: return true
        }
    }

    /// The entry of the value of the first member whose key matches `name` (as ``TapeDocument/member(_:inObjectAt:)``
    /// matches it) in the object at `object` of `tape`, which has this plan's shape; nil when there is none. The
    /// key asked for where it was asked for in the object before costs one comparison of `name` (the same
    /// `stringValue`, usually the same literal) and touches nothing else.
    @inline(__always)
    func value(_ name: String, inObjectAt object: Int, in tape: () -> TapeDocument) -> Int? {
        let index = cursor
        if index < lookups.count, lookups[index].name == name {
            cursor = index + 1
            return lookups[index].value.map { object + $0 }
        }
        return lookUp(name, inObjectAt: object, in: tape())
    }

    /// ``value(_:inObjectAt:in:)`` for a key asked for out of turn, or for the first time.
    private func lookUp(_ name: String, inObjectAt object: Int, in tape: TapeDocument) -> Int? {
        let index: Int
        if let known = lookups.firstIndex(where: { $0.name == name }) {
            index = known
        } else {
            index = lookups.count
            lookups.append((name, tape.member(name, inObjectAt: object).map { $0 - object }))
        }
        cursor = index + 1
        return lookups[index].value.map { object + $0 }
    }
}
