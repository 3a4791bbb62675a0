extension Step {
    /// `'incident' (create)`, or `(assert)` without an id: the step in the REPL's messages.
    var replLabel: String {
        id.map { "'\($0)' (\(kind.name))" } ?? "(\(kind.name))"
    }
}
