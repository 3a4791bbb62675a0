extension YAMLNode {
    /// A scalar made rather than read (the REPL's short forms, a saved session), at line 1 of `column`: quoted or
    /// plain.
    static func scalar(_ text: String, column: Int, quoted: Bool) -> YAMLNode {
        YAMLNode(content: .scalar(text, quoted ? .quoted : .plain), mark: YAMLMark(line: 1, column: column))
    }

    /// The pair `name: value` made rather than read, its key a plain scalar at line 1 of `column`.
    static func pair(_ name: String, _ column: Int, _ value: YAMLNode) -> YAMLNode.Pair {
        YAMLNode.Pair(key: scalar(name, column: column, quoted: false), value: value)
    }

    /// A mapping made rather than read, at line 1 of `column`.
    static func mapping(_ pairs: [YAMLNode.Pair], column: Int) -> YAMLNode {
        YAMLNode(content: .mapping(pairs), mark: YAMLMark(line: 1, column: column))
    }
}
