/// A node of a YAML document with the position where it starts.
///
/// Scalars keep their text and whether they were written plain or quoted (block scalars count as quoted: their
/// text is never a number, a boolean or null). Mappings keep their pairs in document order; keys are scalars.
struct YAMLNode: Sendable, Hashable {
    /// How a scalar was written.
    enum ScalarStyle: Sendable, Hashable {
        case plain
        case quoted
    }

    /// One `key: value` pair of a mapping.
    struct Pair: Sendable, Hashable {
        var key: YAMLNode
        var value: YAMLNode

        /// The key's text (keys are always scalars).
        var name: String { key.scalarText ?? "" }

        /// Whether the key's text is `name`.
        func hasName(_ name: String) -> Bool {
            if case .scalar(let text, _) = key.content { text == name } else { name.isEmpty }
        }
    }

    enum Content: Sendable, Hashable {
        case scalar(String, ScalarStyle)
        case sequence([YAMLNode])
        case mapping([Pair])
    }

    var content: Content
    var mark: YAMLMark

    /// The text of a scalar node, nil for a collection.
    var scalarText: String? {
        if case .scalar(let text, _) = content { text } else { nil }
    }

    /// The pairs of a mapping node, nil otherwise.
    var pairs: [Pair]? {
        if case .mapping(let pairs) = content { pairs } else { nil }
    }

    /// The items of a sequence node, nil otherwise.
    var items: [YAMLNode]? {
        if case .sequence(let items) = content { items } else { nil }
    }

    /// What the node is, for error messages: "a string", "a number", "a list", "a mapping", ...
    var kindDescription: String {
        switch content {
        case .sequence: "a list"
        case .mapping: "a mapping"
        case .scalar:
            switch resolvedScalar {
            case .null: "null"
            case .bool: "a boolean"
            case .number, .nonFinite: "a number"
            case .string, .none: "a string"
            }
        }
    }
}
