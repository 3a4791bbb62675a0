import Foundation
import NowData

extension Expression.Function {
    /// `len(x)`: the characters of a text, the items of an array, the members of an object.
    static func length(_ arguments: [JSONValue]) throws(EvaluationError) -> JSONValue {
            switch arguments[0] {
            case .string(let text): return .number(JSONNumber(text.count))
            case .array(let items): return .number(JSONNumber(items.count))
            case .object(let members): return .number(JSONNumber(members.count))
            case .null: return .number(JSONNumber(0))
            default:
                throw EvaluationError(
                    message: "len() needs a string, an array or an object, not \(arguments[0].kindDescription)")
            }
    }

    /// `contains(a, b)`: a substring, an array item, an object key.
    static func contains(_ arguments: [JSONValue]) throws(EvaluationError) -> JSONValue {
            switch arguments[0] {
            case .string(let text): return .bool(text.hasSubstring(arguments[1].text))
            case .array(let items): return .bool(items.contains { $0.looselyEquals(arguments[1]) })
            case .object(let members): return .bool(members[arguments[1].text] != nil)
            case .null: return .bool(false)
            default:
                throw EvaluationError(
                    message:
                        "contains() needs a string, an array or an object first, not \(arguments[0].kindDescription)")
            }
    }

    /// `matches(text, 'regex')`, with a bounded amount of work.
    static func matches(_ arguments: [JSONValue]) throws(EvaluationError) -> JSONValue {
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
