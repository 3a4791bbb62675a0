import Foundation
import NowData

/// `+` and `-`: numbers (a record's numeric texts too), texts and lists joined, dates moved by durations.
extension ExpressionValue {
    /// `self + other`: the sum of two numbers (or of a number and a text that holds one), two texts or two lists
    /// joined, a date moved forward by a duration, two durations added.
    func adding(_ other: ExpressionValue, dates: JobDates) throws(EvaluationError) -> ExpressionValue {
        switch (self, other) {
        case (.duration(let left), .duration(let right)):
            return .duration(left + right)
        case (.duration(let seconds), let moved), (let moved, .duration(let seconds)):
            guard let date = moved.date(reading: dates) else { throw refused("+", "add", other) }
            return .date(date.addingTimeInterval(seconds))
        case (.json(.string(let left)), .json(.string(let right))):
            return .json(.string(left + right))
        case (.json(.array(let left)), .json(.array(let right))):
            return .json(.array(left + right))
        case (.json(let left), .json(let right)):
            guard left.isNumberKind || right.isNumberKind, let sum = try Self.combine(left, right, "+", +) else {
                throw refused("+", "add", other)
            }
            return .json(.number(sum))
        default:
            throw refused("+", "add", other)
        }
    }

    /// `self - other`: the difference of two numbers, a date moved back by a duration, the duration between two
    /// dates, two durations subtracted.
    func subtracting(_ other: ExpressionValue, dates: JobDates) throws(EvaluationError) -> ExpressionValue {
        switch (self, other) {
        case (.duration(let left), .duration(let right)):
            return .duration(left - right)
        case (_, .duration(let seconds)):
            guard let date = date(reading: dates) else { throw refused("-", "subtract", other) }
            return .date(date.addingTimeInterval(-seconds))
        case (.json(let left), .json(let right))
        where left.isNumberKind || right.isNumberKind || (left.numeric != nil && right.numeric != nil):
            guard let difference = try Self.combine(left, right, "-", -) else { throw refused("-", "subtract", other) }
            return .json(.number(difference))
        default:
            guard let start = other.date(reading: dates), let end = date(reading: dates) else {
                throw refused("-", "subtract", other)
            }
            return .duration(end.timeIntervalSince(start))
        }
    }

    /// `'+' cannot add a number to 'abc'`.
    private func refused(_ op: String, _ verb: String, _ other: ExpressionValue) -> EvaluationError {
        let kinds = [self, other].map(\.json.kindDescription)
        let joinsText = op == "+" && Set(kinds) == ["a string", "a number"] && [self, other].allSatisfy(\.isJSON)
        let hint = joinsText ? "; use format('{}{}', a, b) to join a text and a number" : ""
        let preposition = verb == "add" ? "to" : "from"
        return EvaluationError(
            message: "'\(op)' cannot \(verb) \(other.brief) \(preposition) \(brief)\(hint)")
    }

    /// Two numbers (or numeric texts) combined exactly, in decimal (`0.1 + 0.2` is `0.3`); nil when one is not a
    /// number.
    private static func combine(
        _ left: JSONValue, _ right: JSONValue, _ op: String, _ operation: (Decimal, Decimal) -> Decimal
    ) throws(EvaluationError) -> JSONNumber? {
        guard let leftNumber = left.numeric, let rightNumber = right.numeric else { return nil }
        return try leftNumber.combined(with: rightNumber, op, operation)
    }
}

extension JSONValue {
    /// Whether the value is a number (not a text holding one).
    var isNumberKind: Bool {
        if case .number = self { true } else { false }
    }
}

extension JSONNumber {
    /// The number's exact decimal value, when Foundation's `Decimal` holds it.
    var decimal: Decimal? {
        Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
    }

    /// `self op other`, computed in decimal (in binary floating point for numbers `Decimal` cannot hold).
    func combined(
        with other: JSONNumber, _ op: String, _ operation: (Decimal, Decimal) -> Decimal
    ) throws(EvaluationError) -> JSONNumber {
        if let left = decimal, let right = other.decimal {
            var result = operation(left, right)
            var rounded = Decimal()
            NSDecimalRound(&rounded, &result, 20, .plain)
            if let number = JSONNumber(text: NSDecimalNumber(decimal: rounded).stringValue) { return number }
        }
        let value = op == "+" ? double + other.double : double - other.double
        guard let number = JSONNumber(value) else {
            throw EvaluationError(message: "'\(op)' gives a number JSON cannot hold (\(text) \(op) \(other.text))")
        }
        return number
    }
}
