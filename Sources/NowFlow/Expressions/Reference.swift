import NowData

/// A dotted name in an expression (`steps.caller.records.0.sys_id`), parsed once as a ``DotPath``, with where it
/// starts.
struct Reference: Sendable, Hashable, CustomStringConvertible {
    /// The whole reference as a path.
    var path: DotPath
    /// The part walked inside the value the reference starts from: after `vars.<name>`, `env.<NAME>` or
    /// `steps.<id>`, or after a foreach name.
    var inner: DotPath
    var offset: Int

    /// The roots that take a name after them.
    static let scopes: Set<String> = ["vars", "env", "steps"]

    /// A reference of `components` (none empty) starting at `offset`.
    init(_ components: [String], offset: Int) throws(DotPathError) {
        path = try DotPath(components: components)
        let start = Self.scopes.contains(components[0]) ? 2 : 1
        inner = try DotPath(components: Array(components.dropFirst(start)))
        self.offset = offset
    }

    /// `vars`, `env`, `steps` or a foreach name.
    var root: String { path.components[0] }

    /// The components after the root.
    var names: ArraySlice<String> { path.components.dropFirst() }

    /// How many components name the value that ``inner`` is walked in.
    var innerStart: Int { path.components.count - inner.components.count }

    var description: String { path.text }
}
