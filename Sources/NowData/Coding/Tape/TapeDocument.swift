import Foundation
internal import SimdJSON

/// A parsed document being decoded by ``TapeDecoder``s: the tape, and whether `JSONDecoder` must decide instead.
final class TapeDocument {
    let tape: JSONTape
    /// The text parsed.
    private let data: Data
    /// The values, the root first.
    let entries: UnsafePointer<TapeEntry>
    /// Set when decoding met something that only `JSONDecoder` decides (a fractional number read as an integer,
    /// a date it reads its own way); the caller then decodes the document with `JSONDecoder` instead.
    var needsFoundation = false
    /// The key plans made so far, each with the key type it was made for; a few shapes per type at most.
    @exclusivity(unchecked) private var keyPlans: [(keyType: ObjectIdentifier, plan: TapeKeyPlan)] = []

    /// The document of `data`; nil when simdjson does not accept it.
    init?(_ data: Data) {
        guard let tape = JSONTape(data) else { return nil }
        self.tape = tape
        self.data = data
        entries = tape.entries
    }

    /// The JSON value at `index`, numbers with their text.
    func value(at index: Int) -> JSONValue {
        var numbers = JSONNumberTexts(data)
        // The texts of the numbers before the value are passed over.
        for entry in 0..<index where [.int64, .uint64, .double].contains(entries[entry].kind) { numbers.skip() }
        var position = index
        var shapes = JSONObjectShapes()
        defer { shapes.finish() }
        return JSONValue(tape: entries, at: &position, numbers: &numbers, shapes: &shapes)
    }

    /// The UTF-8 bytes of the string entry at `index`.
    func bytes(at index: Int) -> UnsafeBufferPointer<UInt8> {
        entries[index].bytes
    }

    /// The string entry at `index`.
    func string(at index: Int) -> String {
        entries[index].string
    }

    /// The plan of the keys of `keyType` for the object at `index`: one made for an object of the same shape, or a
    /// new one; nil when the type has had ``maximumShapes`` shapes already (its objects are then looked through).
    func keyPlan(_ keyType: Any.Type, forObjectAt index: Int) -> TapeKeyPlan? {
        let type = ObjectIdentifier(keyType)
        var shapes = 0
        for (planType, plan) in keyPlans.reversed() where planType == type {
            if plan.fits(objectAt: index, in: self) { return plan }
            shapes += 1
        }
        guard shapes < Self.maximumShapes else { return nil }
        let plan = TapeKeyPlan(objectAt: index, in: self)
        keyPlans.append((type, plan))
        return plan
    }

    /// The most shapes of objects a key type gets plans for.
    static let maximumShapes = 4

    /// The index of the value of the first member of the object at `index` whose key is `key` as written, or
    /// becomes `key` under `.convertFromSnakeCase` (``KeyMatching``); nil when there is none.
    func member(_ key: String, inObjectAt index: Int) -> Int? {
        var key = key
        return key.withUTF8 { wanted in
            // The conversion keeps a key's first byte, so most keys are told apart by it alone.
            let firstByte = wanted.first
            let end = Int(entries[index].next)
            var member = index + 1
            while member < end {
                let keyBytes = entries[member].bytes
                if Self.isLowercaseIdentifier(keyBytes) {
                    if keyBytes.first == firstByte,
                        SnakeCase.converts(keyBytes, to: wanted) || Self.equal(keyBytes, wanted)
                    {
                        return member + 1
                    }
                } else {
                    let name = string(at: member)
                    if name.utf8.elementsEqual(wanted) || SnakeCase.camelCase(name).utf8.elementsEqual(wanted) {
                        return member + 1
                    }
                }
                member = Int(entries[member + 1].next)
            }
            return nil
        }
    }

    /// Whether a key is made only of a-z, 0-9 and _, as ServiceNow's field names are: such a key matches a model's
    /// key by bytes alone.
    private static func isLowercaseIdentifier(_ key: UnsafeBufferPointer<UInt8>) -> Bool {
        key.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "_")
        }
    }

    /// Whether two byte strings are the same (a key spelled as the model's key, which the conversion does not give
    /// when it holds an underscore).
    private static func equal(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Bool {
        guard left.count == right.count else { return false }
        for index in left.indices where left[index] != right[index] { return false }
        return true
    }

    /// The entry of the value at `codingPath` (object keys as written, array indexes), the first member of that key
    /// where a key repeats; nil when there is none.
    func entry(at codingPath: [any CodingKey]) -> Int? {
        var index = 0
        for key in codingPath {
            let entry = entries[index]
            switch entry.kind {
            case .array:
                guard let position = key.intValue, position >= 0, position < Int(entry.count) else { return nil }
                index += 1
                for _ in 0..<position { index = Int(entries[index].next) }
            case .object:
                guard let member = memberKeys(ofObjectAt: index).first(where: { $0.name == key.stringValue }) else {
                    return nil
                }
                index = member.value
            default:
                return nil
            }
        }
        return index
    }

    /// The keys of the object at `index` in document order, with the entries of their values.
    func memberKeys(ofObjectAt index: Int) -> [(name: String, value: Int)] {
        var keys: [(name: String, value: Int)] = []
        var member = index + 1
        while member < Int(entries[index].next) {
            keys.append((string(at: member), member + 1))
            member = Int(entries[member + 1].next)
        }
        return keys
    }
}
