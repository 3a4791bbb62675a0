/// One key of a mapping of a job file, as ``JobSchema`` declares it: its name, what its value is, whether the
/// mapping needs it, what it names in the instance's dictionary, and a line of documentation.
struct SchemaKey: Sendable {
    /// What a key's value names in the instance's dictionary: what the name check of a job file (``NameUse``)
    /// looks up, what the REPL checks before it sends a step, and what completion offers after `name=`.
    enum Role: Sendable, CaseIterable {
        /// A table's name (`table`).
        case table
        /// One field's name or dot-walk (`order_by`).
        case field
        /// Field names, as a list or as `a, b` (a query's `fields`, an aggregate's `group_by`).
        case fields
        /// A mapping of field names to the values written to them (a create's `fields`).
        case fieldValues
        /// Conditions on fields: `field: value`, `field: {operator: value}` and `or:` (`where`, `match`).
        case conditions
        /// An encoded query, whose conditions and orderings name fields (`query`).
        case encodedQuery
    }

    var name: String
    var type: SchemaType
    /// Whether every mapping of its kind must have the key (keys needed only in some combinations, such as
    /// `max:` with `where:`, are not).
    var isRequired = false
    /// What the value names in the instance's dictionary; nil when it names nothing there.
    var role: Role?
    /// What the key is for, one line.
    var summary: String

    init(_ name: String, _ type: SchemaType, required: Bool = false, role: Role? = nil, _ summary: String) {
        self.name = name
        self.type = type
        self.isRequired = required
        self.role = role
        self.summary = summary
    }

    /// Whether the key's value is a list of steps.
    var isSteps: Bool {
        if case .steps = type { true } else { false }
    }

    /// Whether the key's value is `true` or `false`.
    var isBoolean: Bool {
        if case .boolean = type { true } else { false }
    }
}
