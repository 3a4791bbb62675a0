/// A dotted name in an expression, with where it starts.
struct Reference: Sendable, Hashable, CustomStringConvertible {
    var root: String
    var path: [String]
    var offset: Int

    var description: String { ([root] + path).joined(separator: ".") }
}
