/// One key of a mapping of a job file, as ``JobSchema`` declares it: its name, what its value is, whether the
/// mapping needs it, and a line of documentation.
struct SchemaKey: Sendable {
    var name: String
    var type: SchemaType
    /// Whether every mapping of its kind must have the key (keys needed only in some combinations, such as
    /// `max:` with `where:`, are not).
    var isRequired = false
    /// What the key is for, one line.
    var summary: String

    init(_ name: String, _ type: SchemaType, required: Bool = false, _ summary: String) {
        self.name = name
        self.type = type
        self.isRequired = required
        self.summary = summary
    }
}
