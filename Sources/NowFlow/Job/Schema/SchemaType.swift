/// What the value of a key of a job file is, as ``JobSchema`` declares it.
indirect enum SchemaType: Sendable {
    /// A text, taken as written.
    case text
    /// A text that may hold `${ ... }`.
    case template
    /// One of these words (`ensure.state`), or, when `templated`, a `${ ... }` that gives one at run time.
    case choice([String], templated: Bool = false)
    /// A condition or value, written bare or as `${ ... }`.
    case expression
    case boolean
    /// A whole number of at least `minimum`, or one `${ ... }` that gives one.
    case count(minimum: Int)
    /// A whole number of at least `minimum`, or a list of them (`http.expect.status`).
    case integers(minimum: Int)
    /// `2s`, `500ms`, `1m`, or a number of seconds.
    case duration
    /// A list of names, written as a YAML list or as `a, b, c`.
    case names
    /// A text, or a list of texts (`vars_files`).
    case texts
    /// A name of letters, digits and `_` that does not start with a digit (a step id, foreach's `as`).
    case name
    /// `true`, `false` or `all` (`display_value`).
    case displayValue
    /// `all`, `false` or a number of records (`show`).
    case show
    /// Any value, its texts read as templates.
    case value
    /// A mapping of names to values: variables, field values, `include.with`.
    case values(String)
    /// A mapping of names to texts, numbers or booleans (`http.headers`).
    case scalars(String)
    /// A mapping of names to expressions (`outputs`).
    case expressions
    /// The conditions of a `where:`: `field: value`, `field: {operator: value}` and `or:`.
    case conditions
    /// A list of steps.
    case steps
    /// A mapping with keys of its own.
    case mapping(SchemaMapping)
    /// Either form: an expression, or a mapping (`assert`).
    case expressionOrMapping(SchemaMapping)
}
