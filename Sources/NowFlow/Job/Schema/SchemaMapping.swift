/// A mapping of a job file (the job, a step's kind, `retry`, `http.expect`, ...) as ``JobSchema`` declares it:
/// its keys in the order diagnostics list them, and how diagnostics name it.
struct SchemaMapping: Sendable {
    /// How diagnostics name the mapping: `unknown key 'x' in <context>`.
    let context: String
    let keys: [SchemaKey]
    /// The names of the keys, in order (made once: the builder checks every mapping against them).
    let names: [String]
    /// Whether the mapping takes exactly one of its keys (`auth`: basic, oauth, oauth_jwt or token).
    let takesOneKey: Bool

    init(_ context: String, takesOneKey: Bool = false, _ keys: [SchemaKey]) {
        self.context = context
        self.takesOneKey = takesOneKey
        self.keys = keys
        self.names = keys.map(\.name)
    }

    /// The key named `name`; nil when the mapping has none.
    func key(_ name: String) -> SchemaKey? {
        keys.first { $0.name == name }
    }

    /// The names of the keys whose ``SchemaKey/Role`` is one of `roles`, in order.
    func names(withRoles roles: Set<SchemaKey.Role>) -> [String] {
        keys.filter { $0.role.map(roles.contains) ?? false }.map(\.name)
    }
}
