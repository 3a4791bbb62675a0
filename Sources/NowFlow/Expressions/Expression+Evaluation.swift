import Foundation
import NowData

extension Expression {
    /// Computes the expression's value in `scope`.
    func evaluate(in scope: Scope) throws(EvaluationError) -> JSONValue {
        switch self {
        case .literal(let value):
            return value
        case .reference(let reference):
            return try reference.resolve(in: scope)
        case .not(let operand):
            return .bool(!(try operand.evaluate(in: scope).boolean(for: "!")))
        case .binary(let op, let left, let right):
            return try op.apply(left, right, in: scope)
        case .call(let function, let arguments, _):
            var values: [JSONValue] = []
            for argument in arguments { values.append(try argument.evaluate(in: scope)) }
            return try function.apply(values)
        }
    }

    /// Evaluates a condition (`when`, `assert`, `until`), which must give a boolean.
    func evaluateCondition(in scope: Scope) throws(EvaluationError) -> Bool {
        let value = try evaluate(in: scope)
        guard case .bool(let result) = value else {
            throw EvaluationError(message: "the condition gives \(value.kindDescription), not true or false")
        }
        return result
    }
}

extension JSONValue {
    /// The boolean of a value used with `!`, `&&` or `||`.
    fileprivate func boolean(for op: String) throws(EvaluationError) -> Bool {
        guard case .bool(let value) = self else {
            throw EvaluationError(message: "'\(op)' needs true or false, not \(kindDescription)")
        }
        return value
    }
}

extension Expression.Operator {
    fileprivate func apply(_ left: Expression, _ right: Expression, in scope: Scope) throws(EvaluationError)
        -> JSONValue
    {
        switch self {
        case .or:
            if try left.evaluate(in: scope).boolean(for: rawValue) { return .bool(true) }
            return .bool(try right.evaluate(in: scope).boolean(for: rawValue))
        case .and:
            guard try left.evaluate(in: scope).boolean(for: rawValue) else { return .bool(false) }
            return .bool(try right.evaluate(in: scope).boolean(for: rawValue))
        case .coalesce:
            do {
                let value = try left.evaluate(in: scope)
                if value != .null { return value }
            } catch where error.isMissing {}
            return try right.evaluate(in: scope)
        case .equal:
            return .bool(try left.evaluate(in: scope).looselyEquals(try right.evaluate(in: scope)))
        case .notEqual:
            return .bool(!(try left.evaluate(in: scope).looselyEquals(try right.evaluate(in: scope))))
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            let order = try left.evaluate(in: scope).compare(try right.evaluate(in: scope), rawValue)
            switch self {
            case .less: return .bool(order == .orderedAscending)
            case .lessOrEqual: return .bool(order != .orderedDescending)
            case .greater: return .bool(order == .orderedDescending)
            default: return .bool(order != .orderedAscending)
            }
        }
    }
}

extension Expression.Function {
    fileprivate func apply(_ arguments: [JSONValue]) throws(EvaluationError) -> JSONValue {
        switch self {
        case .len:
            switch arguments[0] {
            case .string(let text): return .number(JSONNumber(text.count))
            case .array(let items): return .number(JSONNumber(items.count))
            case .object(let members): return .number(JSONNumber(members.count))
            case .null: return .number(JSONNumber(0))
            default:
                throw EvaluationError(
                    message: "len() needs a string, an array or an object, not \(arguments[0].kindDescription)")
            }
        case .empty:
            return .bool(arguments[0].isEmpty)
        case .contains:
            switch arguments[0] {
            case .string(let text): return .bool(text.contains(arguments[1].text))
            case .array(let items): return .bool(items.contains { $0.looselyEquals(arguments[1]) })
            case .object(let members): return .bool(members[arguments[1].text] != nil)
            case .null: return .bool(false)
            default:
                throw EvaluationError(
                    message:
                        "contains() needs a string, an array or an object first, not \(arguments[0].kindDescription)")
            }
        case .matches:
            switch arguments[0] {
            case .array, .object:
                throw EvaluationError(message: "matches() needs a text first, not \(arguments[0].kindDescription)")
            default: break
            }
            let pattern = arguments[1].text
            let regex: NSRegularExpression
            do {
                regex = try NSRegularExpression(pattern: pattern)
            } catch {
                throw EvaluationError(message: "matches(): '\(pattern)' is not a valid regular expression")
            }
            let text = arguments[0].text
            let range = NSRange(text.startIndex..<text.endIndex, in: text)
            // Bounded work: ICU reports progress while it backtracks, and the search stops past the budget.
            let deadline = ContinuousClock.now + Expression.matchBudget
            var matched = false
            var exceeded = false
            regex.enumerateMatches(in: text, options: [.reportProgress], range: range) { result, _, stop in
                if result != nil {
                    matched = true
                    stop.pointee = true
                } else if ContinuousClock.now > deadline {
                    exceeded = true
                    stop.pointee = true
                }
            }
            guard !exceeded else {
                throw EvaluationError(
                    message:
                        "matches(): '\(pattern)' takes more than \(Expression.matchBudget) on a text of \(text.count) characters; simplify the pattern (a nested repetition such as (a+)+ backtracks without end)"
                )
            }
            return .bool(matched)
        }
    }
}
