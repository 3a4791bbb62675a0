/// A position in a YAML text: 1-based line and column (columns count characters).
struct YAMLMark: Sendable, Hashable, Comparable {
    var line: Int
    var column: Int

    static func < (lhs: YAMLMark, rhs: YAMLMark) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }

    /// The mark `count` characters further on the same line.
    func advanced(by count: Int) -> YAMLMark {
        YAMLMark(line: line, column: column + count)
    }
}
