import Foundation
internal import SimdJSON

extension JSONValue {
    /// Parses JSON text with the package's one parser (simdjson); object members keep their order, and of two
    /// members with one key the first is kept.
    ///
    /// - Throws: `DecodingError.dataCorrupted` when `data` is not JSON, saying where the text breaks (`The given
    ///   data was not valid JSON: Unexpected end of file around line 1, column 9.`), or when it nests deeper than
    ///   500 levels.
    public init(json data: Data) throws {
        guard let tape = JSONTape(data) else {
            let context = DecodingError.Context(codingPath: [], debugDescription: "The given data was not valid JSON.")
            throw DecodingError.dataCorrupted(JSONSyntax.locate(context, in: data))
        }
        var index = 0
        var numbers = JSONNumberTexts(data)
        var shapes = JSONObjectShapes()
        self = Self(tape: tape.entries, at: &index, numbers: &numbers, shapes: &shapes)
        shapes.finish()
    }

    /// The value at `index` on a tape, moving `index` past it; `numbers` gives the text of each number in turn, and
    /// an object of a shape in `shapes` is made from its shape.
    init(
        tape entries: UnsafePointer<TapeEntry>, at index: inout Int, numbers: inout JSONNumberTexts,
        shapes: inout JSONObjectShapes
    ) {
        let entry = entries[index]
        index += 1
        switch entry.kind {
        case .null: self = .null
        case .false: self = .bool(false)
        case .true: self = .bool(true)
        // A whole number's text is its digits, unless it was written -0; any other number's is read from the text.
        case .int64 where entry.int64 != 0:
            numbers.skip()
            self = .number(JSONNumber(entry.int64))
        case .uint64:
            numbers.skip()
            self = .number(JSONNumber(entry.uint64))
        case .int64:
            self = .number(numbers.next().flatMap(JSONNumber.init(text:)) ?? JSONNumber(0))
        case .double:
            self = (numbers.next().flatMap(JSONNumber.init(text:)) ?? JSONNumber(entry.double)).map(JSONValue.number)
                ?? .null
        case .string: self = .string(entry.string)
        case .array:
            var elements: [JSONValue] = []
            elements.reserveCapacity(Int(entry.count))
            for _ in 0..<entry.count {
                elements.append(JSONValue(tape: entries, at: &index, numbers: &numbers, shapes: &shapes))
            }
            self = .array(elements)
        case .object:
            let start = index - 1
            if let shape = shapes.shape(entries, objectAt: start) {
                // The members are filled in place, by position: no key is made or hashed.
                var members = shape.members
                for position in shape.indexes {
                    index += 1
                    members.values[position] = JSONValue(tape: entries, at: &index, numbers: &numbers, shapes: &shapes)
                }
                self = .object(JSONObject(shape: shape, members: members))
                return
            }
            var members = JSONObject(capacity: Int(entry.count))
            for _ in 0..<entry.count {
                let key = entries[index].string
                index += 1
                members.addUnlessPresent(key, JSONValue(tape: entries, at: &index, numbers: &numbers, shapes: &shapes))
            }
            shapes.saw(members, entries, objectAt: start)
            self = .object(members)
        }
    }
}
