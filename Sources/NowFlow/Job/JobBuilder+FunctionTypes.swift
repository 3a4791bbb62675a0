import Foundation
import NowData

/// The types of `+`, `-` and function calls, with the errors `validate` can see in them: `lower()` of a number,
/// `'abc' + 1`, `days('x')`, a `format()` whose placeholders and values differ in number, a `date()` of a literal
/// that is not a date.
extension JobBuilder {
    /// Whether the job reads `text` as a date: ServiceNow's format, or its `coder.dates`.
    func readsDate(_ text: String) -> Bool {
        JobDates(coderSettings, zoneName: "UTC").date(fromText: text) != nil
    }

    /// The type of a call, recording an error for each argument of a type the function refuses and for literals
    /// that cannot work.
    func callType(_ function: Expression.Function, _ arguments: [Expression], offset: Int, in node: YAMLNode)
        -> ExpressionType
    {
        let types = arguments.map { type(of: $0, in: node) }
        let (parameters, result) = function.signature(arguments: arguments.count)
        for (index, parameter) in parameters.enumerated() where index < types.count {
            let found = types[index]
            guard found != .unknown, !parameter.accepts.contains(found) else { continue }
            let place = function.arity.upperBound == 1 ? "" : index == 0 ? " first" : " as argument \(index + 1)"
            typeError(
                at: mark(of: arguments[index], in: node),
                "\(function.rawValue)() needs \(parameter.description)\(place), not \(found.description)")
        }
        for (index, argument) in arguments.enumerated() {
            guard case .literal(.string(let text)) = argument else { continue }
            if let problem = literalProblem(function, index, text) {
                typeError(at: position(in: node, offset: offset), "\(function.rawValue)(): \(problem)")
            }
        }
        if function == .format, case .literal(.string(let template)) = arguments.first,
            let placeholders = Expression.Function.placeholderCount(template), placeholders != arguments.count - 1
        {
            let values = arguments.count - 1
            typeError(
                at: position(in: node, offset: offset),
                "format(): '\(template)' has \(placeholders) placeholder\(placeholders == 1 ? "" : "s") for \(values) value\(values == 1 ? "" : "s")"
            )
        }
        return result
    }

    /// What is wrong with a literal text given as argument `index` of `function`, if anything.
    private func literalProblem(_ function: Expression.Function, _ index: Int, _ text: String) -> String? {
        switch (function, index) {
        case (.date, 0), (.formatDate, 0):
            guard !readsDate(text) else { return nil }
            return "'\(text)' is not a date; write yyyy-MM-dd HH:mm:ss or yyyy-MM-dd (UTC)"
        case (.days, 0), (.hours, 0), (.minutes, 0):
            return JSONValue.string(text).numeric == nil ? "'\(text)' is not a number" : nil
        case (.format, 0):
            return Expression.Function.placeholderCount(text) == nil
                ? "'\(text)' has a '{' or '}' that is not part of {}; write {{ or }}" : nil
        case (.split, 1), (.replace, 1):
            return text.isEmpty ? "the \(function == .split ? "separator" : "text to replace") is empty" : nil
        case (.pluck, 1):
            return (try? DotPath(text)) == nil ? "'\(text)' is not a field name or dot path" : nil
        default:
            return nil
        }
    }

    /// The type of `left + right` or `left - right`, recording an error when the known types cannot combine.
    func arithmeticType(_ op: Expression.Operator, _ left: Expression, _ right: Expression, in node: YAMLNode)
        -> ExpressionType
    {
        let (leftType, rightType) = (type(of: left, in: node), type(of: right, in: node))
        let (verb, preposition) = op == .plus ? ("add", "to") : ("subtract", "from")
        for (operand, found) in [(left, leftType), (right, rightType)] where [.bool, .null, .object].contains(found) {
            let kinds = op == .plus ? "numbers, texts, lists, dates and durations" : "numbers, dates and durations"
            typeError(
                at: mark(of: operand, in: node), "'\(op.rawValue)' cannot \(verb) \(found.description); it works on \(kinds)")
            return .unknown
        }
        if let result = arithmetic(op, leftType, rightType, left, right) { return result }
        let joinsText = op == .plus && Set([leftType, rightType]) == [.string, .number]
        let hint = joinsText ? "; use format('{}{}', a, b) to join a text and a number" : ""
        typeError(
            at: mark(of: left, in: node),
            "'\(op.rawValue)' cannot \(verb) \(rightType.description(of: right)) \(preposition) \(leftType.description(of: left))\(hint)")
        return .unknown
    }

    /// The result of `+` or `-` on known types; nil when they cannot combine (a text that is a literal and not a
    /// number with a number, a list with a text, a date with a number, ...).
    private func arithmetic(
        _ op: Expression.Operator, _ left: ExpressionType, _ right: ExpressionType, _ leftExpression: Expression,
        _ rightExpression: Expression
    ) -> ExpressionType? {
        /// A text that may hold a number (a record's field), unless it is a literal that does not.
        func numeric(_ type: ExpressionType, _ expression: Expression) -> Bool {
            guard type == .string else { return type == .number }
            if case .literal(.string(let text)) = expression { return JSONValue.string(text).numeric != nil }
            return true
        }
        /// A text that may hold a date, unless it is a literal that does not.
        func dated(_ type: ExpressionType, _ expression: Expression) -> Bool {
            guard type == .string else { return type == .date }
            if case .literal(.string(let text)) = expression { return readsDate(text) }
            return true
        }
        if left == .unknown || right == .unknown { return .unknown }
        switch (op, left, right) {
        case (_, .duration, .duration): return .duration
        case (.plus, .string, .string): return .string
        case (.plus, .array, .array): return .array
        case (_, .number, .number): return .number
        case (_, .number, .string), (_, .string, .number):
            return numeric(left, leftExpression) && numeric(right, rightExpression) ? .number : nil
        case (.plus, .duration, _): return dated(right, rightExpression) ? .date : nil
        case (_, _, .duration): return dated(left, leftExpression) ? .date : nil
        case (.minus, .date, _), (.minus, _, .date), (.minus, .string, .string):
            if left == .string, right == .string { return .unknown }
            return dated(left, leftExpression) && dated(right, rightExpression) ? .duration : nil
        default: return nil
        }
    }
}
