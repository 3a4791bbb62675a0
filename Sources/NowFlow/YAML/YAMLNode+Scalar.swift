extension YAMLNode {
    /// The core-schema value of a scalar node, nil for a collection.
    var resolvedScalar: YAMLScalar? {
        if case .scalar(let text, let style) = content { YAMLScalar(text: text, style: style) } else { nil }
    }
}
