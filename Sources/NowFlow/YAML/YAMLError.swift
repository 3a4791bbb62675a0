/// A YAML text that cannot be read: libyaml's own errors and the layer's rules (duplicate keys, a second document,
/// unknown aliases), each with the position it concerns.
struct YAMLError: Error, Sendable, Hashable, CustomStringConvertible {
    var message: String
    var mark: YAMLMark

    var description: String { "\(mark.line):\(mark.column): \(message)" }
}
