import Foundation
import NowData

extension Expression {
    /// Computes the expression's value in `scope`, as JSON: a date as the instance's UTC text, a duration as its
    /// number of seconds.
    func evaluate(in scope: Scope) throws(EvaluationError) -> JSONValue {
        try value(in: scope).json
    }

    /// Computes the expression's value in `scope`, dates, durations and records kept as such.
    func value(in scope: Scope) throws(EvaluationError) -> ExpressionValue {
        switch self {
        case .literal(let value):
            return .json(value)
        case .list(let items):
            var values: [JSONValue] = []
            for item in items { values.append(try item.evaluate(in: scope)) }
            return .json(.array(values))
        case .reference(let reference):
            return try reference.value(in: scope)
        case .not(let operand):
            return .json(.bool(!(try operand.value(in: scope).boolean(for: "!"))))
        case .binary(let op, let left, let right):
            return try op.apply(left, right, in: scope)
        case .call(let function, let arguments, _):
            var values: [ExpressionValue] = []
            for argument in arguments { values.append(try argument.value(in: scope)) }
            return try function.apply(values, in: scope)
        }
    }

    /// Evaluates a condition (`when`, `assert`, `until`), which must give a boolean.
    func evaluateCondition(in scope: Scope) throws(EvaluationError) -> Bool {
        let value = try value(in: scope)
        guard case .json(.bool(let result)) = value else {
            throw EvaluationError(message: "the condition gives \(value.kindDescription), not true or false")
        }
        return result
    }
}

extension ExpressionValue {
    /// The boolean of a value used with `!`, `&&` or `||`.
    fileprivate func boolean(for op: String) throws(EvaluationError) -> Bool {
        guard case .json(.bool(let value)) = self else {
            throw EvaluationError(message: "'\(op)' needs true or false, not \(kindDescription)")
        }
        return value
    }
}

extension Expression.Operator {
    fileprivate func apply(_ left: Expression, _ right: Expression, in scope: Scope) throws(EvaluationError)
        -> ExpressionValue
    {
        switch self {
        case .or:
            if try left.value(in: scope).boolean(for: rawValue) { return .json(.bool(true)) }
            return .json(.bool(try right.value(in: scope).boolean(for: rawValue)))
        case .and:
            guard try left.value(in: scope).boolean(for: rawValue) else { return .json(.bool(false)) }
            return .json(.bool(try right.value(in: scope).boolean(for: rawValue)))
        case .coalesce:
            do {
                let value = try left.value(in: scope)
                if value != .json(.null) { return value }
            } catch where error.isMissing {}
            return try right.value(in: scope)
        default:
            let (leftValue, rightValue) = (
                try left.value(in: scope).withRecordsAsJSON, try right.value(in: scope).withRecordsAsJSON
            )
            switch self {
            case .equal: return .json(.bool(leftValue.looselyEquals(rightValue, dates: scope.dates)))
            case .notEqual: return .json(.bool(!leftValue.looselyEquals(rightValue, dates: scope.dates)))
            case .in: return .json(.bool(try rightValue.holds(leftValue, dates: scope.dates)))
            case .plus: return try leftValue.adding(rightValue, dates: scope.dates)
            case .minus: return try leftValue.subtracting(rightValue, dates: scope.dates)
            default:
                let order = try leftValue.compare(rightValue, rawValue, dates: scope.dates)
                switch self {
                case .less: return .json(.bool(order == .orderedAscending))
                case .lessOrEqual: return .json(.bool(order != .orderedDescending))
                case .greater: return .json(.bool(order == .orderedDescending))
                default: return .json(.bool(order != .orderedAscending))
                }
            }
        }
    }
}
