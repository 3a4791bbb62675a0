import Foundation

/// HTTP header fields in order, looked up without regard to letter case.
public struct HTTPHeaders: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    private var fields: [(name: String, value: String)]

    /// Headers from name-value pairs, in order.
    public init(_ fields: [(String, String)] = []) {
        self.fields = fields.map { (name: $0.0, value: $0.1) }
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    /// The value of the first field called `name`, in any letter case; setting replaces every such field.
    public subscript(name: String) -> String? {
        get { fields.first { Self.sameName($0.name, name) }?.value }
        set {
            fields.removeAll { Self.sameName($0.name, name) }
            if let newValue { fields.append((name: name, value: newValue)) }
        }
    }

    /// Whether two field names are the same but for the letter case of ASCII letters (field names are ASCII tokens,
    /// RFC 9110); compared byte by byte, as every request and answer looks its headers up.
    static func sameName(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.elementsEqual(rhs.utf8) { left, right in
            left == right || (left ^ 0x20 == right && (0x61...0x7A).contains(left | 0x20))
        }
    }

    /// Adds a field, keeping any others of the same name.
    public mutating func add(name: String, value: String) {
        fields.append((name: name, value: value))
    }

    public func makeIterator() -> some IteratorProtocol<(name: String, value: String)> {
        fields.makeIterator()
    }

    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.elementsEqual(rhs.fields) { $0.name == $1.name && $0.value == $1.value }
    }

    public func hash(into hasher: inout Hasher) {
        for field in fields {
            hasher.combine(field.name)
            hasher.combine(field.value)
        }
    }
}
