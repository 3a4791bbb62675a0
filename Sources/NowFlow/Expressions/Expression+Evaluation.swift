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

extension Reference {
    /// The value the reference names.
    func resolve(in scope: Scope) throws(EvaluationError) -> Value {
        var remaining = path[...]
        var value: Value
        var walked = root
        switch root {
        case "vars", "env", "steps":
            guard let name = remaining.popFirst() else {
                throw EvaluationError(message: "'\(root)' needs a name after it, as in \(root).name")
            }
            walked += "." + name
            let found: Value? =
                switch root {
                case "vars": scope.vars[name]
                case "env": scope.env[name].map(Value.string)
                default: scope.steps[name]
                }
            guard let found else {
                let what =
                    switch root {
                    case "vars": "no variable '\(name)' is set"
                    case "env": "the environment variable \(name) is not set"
                    default: "step '\(name)' has no result (it did not run, or failed)"
                    }
                throw EvaluationError(message: "\(walked): \(what)", isMissing: true)
            }
            value = found
        default:
            guard let local = scope.locals[root] else {
                throw EvaluationError(message: "unknown name '\(root)'", isMissing: true)
            }
            value = local
        }
        for part in remaining {
            value = try value.member(part, of: walked)
            walked += "." + part
        }
        return value
    }
}

extension Value {
    /// The field `name` of a record, or the item at index `name` of a list.
    func member(_ name: String, of path: String) throws(EvaluationError) -> Value {
        switch self {
        case .map(let fields):
            guard let value = fields[name] else {
                throw EvaluationError(message: "\(path) has no field '\(name)'", isMissing: true)
            }
            return value
        case .list(let items):
            guard let index = Int(name) else {
                throw EvaluationError(message: "\(path) is a list; '\(name)' is not an index (use \(path).0)")
            }
            guard items.indices.contains(index) else {
                throw EvaluationError(
                    message:
                        "\(path) has \(items.count) item\(items.count == 1 ? "" : "s"); index \(index) is out of range",
                    isMissing: true)
            }
            return items[index]
        default:
            throw EvaluationError(message: "\(path) is \(kindDescription), which has no field '\(name)'")
        }
    }

    /// The boolean of a value used with `!`, `&&` or `||`.
    func boolean(for op: String) throws(EvaluationError) -> Bool {
        guard case .bool(let value) = self else {
            throw EvaluationError(message: "'\(op)' needs true or false, not \(kindDescription)")
        }
        return value
    }

    /// Equality as job files see it: numbers compare with numeric strings, booleans with "true"/"false",
    /// and null with the empty string (ServiceNow's empty field).
    func looselyEquals(_ other: Value) -> Bool {
        switch (self, other) {
        case (.null, .string(let text)), (.string(let text), .null): return text.isEmpty
        case (.bool(let flag), .string(let text)), (.string(let text), .bool(let flag)):
            return text == (flag ? "true" : "false")
        case (.int, .string), (.double, .string), (.string, .int), (.string, .double), (.int, .double), (.double, .int),
            (.int, .int), (.double, .double):
            guard let left = number, let right = other.number else { return false }
            return left == right
        case (.list(let left), .list(let right)):
            return left.count == right.count && zip(left, right).allSatisfy { $0.looselyEquals($1) }
        default:
            return self == other
        }
    }

    /// The order of two values: numbers (or numeric strings) by value, strings by text.
    func compare(_ other: Value, _ op: String) throws(EvaluationError) -> ComparisonResult {
        if case .string(let left) = self, case .string(let right) = other {
            if let leftNumber = number, let rightNumber = other.number {
                return leftNumber < rightNumber
                    ? .orderedAscending : leftNumber > rightNumber ? .orderedDescending : .orderedSame
            }
            return left < right ? .orderedAscending : left > right ? .orderedDescending : .orderedSame
        }
        guard let left = number, let right = other.number else {
            throw EvaluationError(message: "'\(op)' cannot compare \(kindDescription) with \(other.kindDescription)")
        }
        return left < right ? .orderedAscending : left > right ? .orderedDescending : .orderedSame
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
