/// What the value of a key of a job file is, as ``JobSchema`` declares it.
indirect enum SchemaType: Sendable {
    /// A text, taken as written.
    case text
    /// A text that may hold `${ ... }`.
    case template
    /// One of these words (`ensure.state`); when `templated`, in any case, or a `${ ... }` that gives one at run
    /// time (`http.method`).
    case choice([String], templated: Bool = false)
    /// A condition or value, written bare or as `${ ... }`.
    case expression
    case boolean
    /// A whole number of at least `minimum`, or one `${ ... }` that gives one.
    case count(minimum: Int)
    /// A whole number in `range`, or a list of them (`http.expect.status`).
    case integers(ClosedRange<Int>)
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
    /// A mapping of variable names to values (`vars`, `set`, `include.with`).
    case variables
    /// A mapping of field names (or dot-walks) to values (`fields`, `match`).
    case fieldValues
    /// A mapping of dot paths to values (`http.expect.json`).
    case pathValues
    /// A mapping of names to texts, numbers or booleans (`http.query`, `http.headers`).
    case scalars
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

extension SchemaType {
    /// The type in a few words, for ``JobSchema/reference``.
    var summary: String {
        switch self {
        case .text: "text"
        case .template: "text with ${...}"
        case .choice(let words, let templated): words.joined(separator: " | ") + (templated ? " | ${...}" : "")
        case .expression: "expression"
        case .boolean: "true | false"
        case .count(let minimum): "whole number >= \(minimum) | ${...}"
        case .integers(let range): "\(range.lowerBound)-\(range.upperBound) | list"
        case .duration: "duration (2s, 500ms, 1m)"
        case .names: "names (list | a, b)"
        case .texts: "text | list of texts"
        case .name: "name"
        case .displayValue: "false | true | all"
        case .show: "all | false | number"
        case .value: "any value"
        case .variables: "variable: value, ..."
        case .fieldValues: "field: value, ..."
        case .pathValues: "dot.path: value, ..."
        case .scalars: "name: value, ..."
        case .expressions: "name: expression, ..."
        case .conditions: "conditions"
        case .steps: "list of steps"
        case .mapping: "mapping"
        case .expressionOrMapping: "expression | mapping"
        }
    }
}
