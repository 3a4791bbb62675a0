/// The members of a JSON object, in the order they were written or added.
///
/// A key appears once: setting an existing key replaces its value in place, and a document that repeats a key
/// keeps the first (as the package's decoders do). Two objects are equal when they have the same members,
/// whatever their order.
public struct JSONObject: Sendable, Hashable, Sequence {
    /// The keys, in order.
    public private(set) var keys: [String] = []
    private var values: [String: JSONValue] = [:]

    /// An empty object.
    public init() {}

    /// An empty object with room for `count` members.
    init(capacity count: Int) {
        keys.reserveCapacity(count)
        values.reserveCapacity(count)
    }

    /// An object of `shape`'s keys, whose values `members` holds (a copy of the shape's members, filled in).
    init(shape: JSONObjectShape, members: [String: JSONValue]) {
        keys = shape.keys
        values = members
    }

    /// Adds `value` under `key` at the end, unless the object has `key` already (the first is kept): one look-up
    /// of the key, for the parser.
    mutating func addUnlessPresent(_ key: String, _ value: JSONValue) {
        if let first = values.updateValue(value, forKey: key) {
            values[key] = first
        } else {
            keys.append(key)
        }
    }

    /// An object of `members`, in order; of two members with one key, the first is kept.
    public init<Members: Sequence<(String, JSONValue)>>(_ members: Members) {
        for (key, value) in members where values[key] == nil {
            keys.append(key)
            values[key] = value
        }
    }

    /// The value of `key`; setting nil removes the member, setting a new key adds it at the end.
    public subscript(key: String) -> JSONValue? {
        get { values[key] }
        set {
            switch (values[key] != nil, newValue) {
            case (true, nil):
                keys.removeAll { $0 == key }
                values[key] = nil
            case (false, let value?):
                keys.append(key)
                values[key] = value
            case (true, let value?):
                values[key] = value
            case (false, nil):
                break
            }
        }
    }

    /// The number of members.
    public var count: Int { keys.count }

    /// Whether there is no member.
    public var isEmpty: Bool { keys.isEmpty }

    /// The members as a dictionary (their order lost).
    public var dictionary: [String: JSONValue] { values }

    /// The members in order.
    public func makeIterator() -> some IteratorProtocol<(key: String, value: JSONValue)> {
        keys.lazy.compactMap { key in values[key].map { (key: key, value: $0) } }.makeIterator()
    }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.values == rhs.values
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(values)
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral members: (String, JSONValue)...) {
        self.init(members)
    }
}
