extension Array where Element == String {
    /// The names as alternatives, for messages: `a, b or c`.
    var alternatives: String {
        guard count > 1, let last else { return first ?? "" }
        return dropLast().joined(separator: ", ") + " or " + last
    }
}
