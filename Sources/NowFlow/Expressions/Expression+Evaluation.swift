import Foundation

extension Expression {
    /// Computes the expression's value in `scope`.
    func evaluate(in scope: Scope) throws(EvaluationError) -> Value {
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
            var values: [Value] = []
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

extension Expression.Operator {
    fileprivate func apply(_ left: Expression, _ right: Expression, in scope: Scope) throws(EvaluationError) -> Value {
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
            } catch  where error.isMissing {}
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
    fileprivate func apply(_ arguments: [Value]) throws(EvaluationError) -> Value {
        switch self {
        case .len:
            switch arguments[0] {
            case .string(let text): return .int(text.count)
            case .list(let items): return .int(items.count)
            case .map(let fields): return .int(fields.count)
            case .null: return .int(0)
            default:
                throw EvaluationError(
                    message: "len() needs a string, a list or a record, not \(arguments[0].kindDescription)")
            }
        case .empty:
            return .bool(arguments[0].isEmpty)
        case .contains:
            switch arguments[0] {
            case .string(let text): return .bool(text.contains(arguments[1].text))
            case .list(let items): return .bool(items.contains { $0.looselyEquals(arguments[1]) })
            case .map(let fields): return .bool(fields[arguments[1].text] != nil)
            case .null: return .bool(false)
            default:
                throw EvaluationError(
                    message: "contains() needs a string, a list or a record first, not \(arguments[0].kindDescription)")
            }
        case .matches:
            switch arguments[0] {
            case .list, .map:
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
            return .bool(regex.firstMatch(in: text, range: range) != nil)
        }
    }
}
