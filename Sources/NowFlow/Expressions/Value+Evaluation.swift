import Foundation

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
