extension Expression {
    /// A built-in function: on values (`len`, `contains`, `matches`, `empty`), on texts (`lower`, `upper`, `trim`,
    /// `split`, `join`, `replace`, `format`), on lists (`count`, `first`, `last`, `sum`, `min`, `max`, `pluck`) and
    /// on dates (`now`, `today`, `date`, `days`, `hours`, `minutes`, `format_date`).
    enum Function: String, Sendable, Hashable, CaseIterable {
        case len, contains, matches, empty
        case lower, upper, trim, split, join, replace, format
        case count, first, last, sum, min, max, pluck
        case now, today, date, days, hours, minutes
        case formatDate = "format_date"

        /// The most arguments a function of variable arity (`format`, `min`, `max`) takes.
        static let maximumArguments = 64

        /// How many arguments the function takes.
        var arity: ClosedRange<Int> {
            switch self {
            case .now, .today: 0...0
            case .len, .empty, .lower, .upper, .trim, .count, .first, .last, .sum, .date, .days, .hours, .minutes:
                1...1
            case .contains, .matches, .split, .join, .pluck, .formatDate: 2...2
            case .replace: 3...3
            case .format, .min, .max: 1...Self.maximumArguments
            }
        }

        /// `len() takes 1 argument, not 2`, or nil when `count` arguments are right.
        func arityProblem(given count: Int) -> String? {
            guard !arity.contains(count) else { return nil }
            let plural: (Int) -> String = { "\($0) argument\($0 == 1 ? "" : "s")" }
            if arity.count == 1 { return "\(rawValue)() takes \(plural(arity.lowerBound)), not \(count)" }
            if count < arity.lowerBound { return "\(rawValue)() takes at least \(plural(arity.lowerBound)), not \(count)" }
            return "\(rawValue)() takes at most \(plural(arity.upperBound)), not \(count)"
        }
    }
}
