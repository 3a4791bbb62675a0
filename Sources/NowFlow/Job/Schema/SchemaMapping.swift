/// A mapping of a job file (the job, a step's kind, `retry`, `http.expect`, ...) as ``JobSchema`` declares it:
/// its keys in the order diagnostics list them, and how diagnostics name it.
struct SchemaMapping: Sendable {
    /// How diagnostics name the mapping: `unknown key 'x' in <context>`.
    var context: String
    var keys: [SchemaKey]
    /// Whether the mapping takes exactly one of its keys (`auth`: basic, oauth or token).
    var takesOneKey = false

    init(_ context: String, takesOneKey: Bool = false, _ keys: [SchemaKey]) {
        self.context = context
        self.takesOneKey = takesOneKey
        self.keys = keys
    }

    /// The names of the keys, in order.
    var names: [String] { keys.map(\.name) }

    /// The declaration of `name`; nil when the mapping has no such key.
    func key(_ name: String) -> SchemaKey? {
        keys.first { $0.name == name }
    }
}
