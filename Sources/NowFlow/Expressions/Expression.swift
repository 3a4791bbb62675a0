import NowData

/// A parsed expression: what `when`, `assert`, `until`, `foreach` and every `${ ... }` hold.
///
/// Offsets are 0-based character positions in the expression's source, so that errors can point at a column.
indirect enum Expression: Sendable, Hashable {
    /// A binary operator, from `||` (loosest) to `??` (tightest).
    enum Operator: String, Sendable, Hashable {
        case or = "||"
        case and = "&&"
        case equal = "=="
        case notEqual = "!="
        case less = "<"
        case lessOrEqual = "<="
        case greater = ">"
        case greaterOrEqual = ">="
        /// `item in list`, `'tut' in text`, `key in object`.
        case `in` = "in"
        case plus = "+"
        case minus = "-"
        case coalesce = "??"
    }

    case literal(JSONValue)
    /// `[a, b, c]`: a list of expressions.
    case list([Expression])
    /// `root.part.part`: `vars.x`, `env.NAME`, `steps.id.records.0.sys_id`, or a foreach name.
    case reference(Reference)
    case not(Expression)
    case binary(Operator, Expression, Expression)
    case call(Function, [Expression], offset: Int)

    /// The most time one `matches()` may take: a pattern that backtracks longer is an error, not a hang.
    static let matchBudget: Duration = .seconds(1)
}

extension Expression {
    /// Every reference the expression holds, in order.
    var references: [Reference] {
        switch self {
        case .literal: []
        case .list(let items): items.flatMap(\.references)
        case .reference(let reference): [reference]
        case .not(let operand): operand.references
        case .binary(_, let left, let right): left.references + right.references
        case .call(_, let arguments, _): arguments.flatMap(\.references)
        }
    }

    /// Every function call with its arguments, in order (to check literal regular expressions).
    var calls: [(Function, [Expression], Int)] {
        switch self {
        case .literal, .reference: []
        case .list(let items): items.flatMap(\.calls)
        case .not(let operand): operand.calls
        case .binary(_, let left, let right): left.calls + right.calls
        case .call(let function, let arguments, let offset):
            [(function, arguments, offset)] + arguments.flatMap(\.calls)
        }
    }
}
