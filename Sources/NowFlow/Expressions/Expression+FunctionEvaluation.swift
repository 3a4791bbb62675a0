import Foundation
import NowData

extension Expression.Function {
    /// The function's value for its arguments `values` (already evaluated), in `scope` (for the clock and the job's
    /// dates): `first()` and `last()` of records give a record, the other functions work on the records' JSON.
    func apply(_ values: [ExpressionValue], in scope: Scope) throws(EvaluationError) -> ExpressionValue {
        if self == .first || self == .last, case .records(let records)? = values.first {
            return (self == .first ? records.first : records.last).map(ExpressionValue.record) ?? .json(.null)
        }
        let arguments = values.map(\.withRecordsAsJSON)
        switch self {
        case .empty:
            return .json(.bool(arguments[0].json.isEmpty))
        case .len, .contains, .matches:
            if let index = arguments.prefix(self == .contains ? 1 : 2).firstIndex(where: { !$0.isJSON }) {
                let expected = self == .matches ? "a text" : "a string, an array or an object"
                throw wrongKind(arguments, index, expected)
            }
            let values = arguments.map(\.json)
            switch self {
            case .len: return .json(try Self.length(values))
            case .contains: return .json(try Self.contains(values))
            default: return .json(try Self.matches(values))
            }
        case .lower: return .json(.string(try text(arguments, 0).lowercased()))
        case .upper: return .json(.string(try text(arguments, 0).uppercased()))
        case .trim: return .json(.string(try text(arguments, 0).trimmingCharacters(in: .whitespacesAndNewlines)))
        case .split:
            let (text, separator) = (try text(arguments, 0), try text(arguments, 1))
            guard !separator.isEmpty else { throw failure("the separator is empty") }
            guard !text.isEmpty else { return .json(.array([])) }
            return .json(.array(text.components(separatedBy: separator).map(JSONValue.string)))
        case .join:
            return .json(.string(try list(arguments, 0).map(\.text).joined(separator: try text(arguments, 1))))
        case .replace:
            let (text, old, new) = (try text(arguments, 0), try text(arguments, 1), try text(arguments, 2))
            guard !old.isEmpty else { throw failure("the text to replace is empty") }
            return .json(.string(text.replacingOccurrences(of: old, with: new)))
        case .format:
            return .json(.string(try Self.format(try text(arguments, 0), arguments.dropFirst().map(\.json.text))))
        case .count:
            return .json(.number(JSONNumber(try list(arguments, 0).count)))
        case .first: return .json(try list(arguments, 0).first ?? .null)
        case .last: return .json(try list(arguments, 0).last ?? .null)
        case .sum:
            var total = JSONNumber(0)
            for (index, item) in try list(arguments, 0).enumerated() {
                guard let number = item.numeric else {
                    throw failure("item \(index) is \(ExpressionValue.json(item).brief), not a number")
                }
                total = try total.combined(with: number, "+", +)
            }
            return .json(.number(total))
        case .min, .max:
            let items = arguments.count == 1 ? try list(arguments, 0).map(ExpressionValue.json) : arguments
            var best: ExpressionValue?
            for item in items {
                guard let current = best else {
                    best = item
                    continue
                }
                let order = try item.compare(current, "\(rawValue)()", dates: scope.dates)
                if order == (self == .min ? .orderedAscending : .orderedDescending) { best = item }
            }
            return best ?? .json(.null)
        case .pluck:
            let records = try list(arguments, 0)
            let field = try text(arguments, 1)
            let path: DotPath
            do {
                path = try DotPath(field)
            } catch {
                throw failure("'\(field)' is not a field name or dot path: \(error)")
            }
            var values: [JSONValue] = []
            for (index, record) in records.enumerated() {
                guard case .object = record else {
                    throw failure("item \(index) is \(record.kindDescription), not a record")
                }
                values.append((try? record.value(at: path)) ?? .null)
            }
            return .json(.array(values))
        case .now:
            return .date(scope.now())
        case .today:
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = scope.dates.zone
            return .date(calendar.startOfDay(for: scope.now()))
        case .date:
            return .date(try date(arguments, 0, dates: scope.dates))
        case .days: return .duration(try number(arguments, 0) * 86_400)
        case .hours: return .duration(try number(arguments, 0) * 3_600)
        case .minutes: return .duration(try number(arguments, 0) * 60)
        case .formatDate:
            let date = try date(arguments, 0, dates: scope.dates)
            let pattern = try text(arguments, 1)
            return .json(.string(CoderSettings.formatter(pattern, zone: scope.dates.zone).string(from: date)))
        }
    }

    /// `format('{} of {}', 3, 5)`: each `{}` replaced by the next value's text; `{{` and `}}` write `{` and `}`.
    static func format(_ template: String, _ values: [String]) throws(EvaluationError) -> String {
        guard let placeholders = placeholderCount(template) else {
            throw EvaluationError(message: "format(): '\(template)' has a '{' or '}' that is not part of {}; write {{ or }}")
        }
        guard placeholders == values.count else {
            throw EvaluationError(
                message:
                    "format(): '\(template)' has \(placeholders) placeholder\(placeholders == 1 ? "" : "s") for \(values.count) value\(values.count == 1 ? "" : "s")"
            )
        }
        var result = ""
        var remaining = values[...]
        var characters = template[...]
        while let character = characters.popFirst() {
            switch character {
            case "{" where characters.first == "{", "}" where characters.first == "}":
                result.append(character)
                characters.removeFirst()
            case "{":
                characters.removeFirst()
                result += remaining.popFirst() ?? ""
            default:
                result.append(character)
            }
        }
        return result
    }

    /// How many `{}` a `format()` text holds; nil when a brace stands alone.
    static func placeholderCount(_ template: String) -> Int? {
        var count = 0
        var characters = template[...]
        while let character = characters.popFirst() {
            switch character {
            case "{" where characters.first == "{", "}" where characters.first == "}":
                characters.removeFirst()
            case "{" where characters.first == "}":
                characters.removeFirst()
                count += 1
            case "{", "}":
                return nil
            default:
                break
            }
        }
        return count
    }

    // MARK: - Arguments

    private func failure(_ message: String) -> EvaluationError {
        EvaluationError(message: "\(rawValue)(): \(message)")
    }

    /// `lower() needs a string, not a number`; for a function of several arguments, which one.
    private func wrongKind(_ arguments: [ExpressionValue], _ index: Int, _ expected: String) -> EvaluationError {
        let place = arity.upperBound == 1 ? "" : index == 0 ? " first" : " as argument \(index + 1)"
        return EvaluationError(message: "\(rawValue)() needs \(expected)\(place), not \(arguments[index].kindDescription)")
    }

    /// A text argument; null counts as the empty text.
    private func text(_ arguments: [ExpressionValue], _ index: Int) throws(EvaluationError) -> String {
        switch arguments[index] {
        case .json(.string(let text)): return text
        case .json(.null): return ""
        default: throw wrongKind(arguments, index, "a string")
        }
    }

    /// A list argument; null counts as the empty list.
    private func list(_ arguments: [ExpressionValue], _ index: Int) throws(EvaluationError) -> [JSONValue] {
        switch arguments[index] {
        case .json(.array(let items)): return items
        case .json(.null): return []
        default: throw wrongKind(arguments, index, "an array")
        }
    }

    /// A number argument, or a text that holds one.
    private func number(_ arguments: [ExpressionValue], _ index: Int) throws(EvaluationError) -> Double {
        guard case .json(let value) = arguments[index], let number = value.numeric else {
            throw wrongKind(arguments, index, "a number")
        }
        return number.double
    }

    /// A date argument, or a text the job reads as one.
    private func date(_ arguments: [ExpressionValue], _ index: Int, dates: JobDates) throws(EvaluationError) -> Date {
        if let date = arguments[index].date(reading: dates) { return date }
        if case .json(.string(let text)) = arguments[index] {
            throw failure("'\(text)' is not a date; write yyyy-MM-dd HH:mm:ss or yyyy-MM-dd (UTC), or the job's coder.dates format")
        }
        throw wrongKind(arguments, index, "a date")
    }
}
