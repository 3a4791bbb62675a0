/// The types of the functions' parameters and results, which `validate` checks calls against.
extension Expression.Function {
    /// What one parameter accepts: the known types it takes, and how messages say it.
    struct Parameter {
        var accepts: Set<ExpressionType>
        var description: String

        static let text = Parameter(accepts: [.string, .null], description: "a string")
        static let list = Parameter(accepts: [.array, .null], description: "an array")
        static let number = Parameter(accepts: [.number, .string], description: "a number")
        static let date = Parameter(accepts: [.date, .string], description: "a date")
        static let collection = Parameter(
            accepts: [.string, .array, .object], description: "a string, an array or an object")
        static let any = Parameter(
            accepts: [.bool, .number, .string, .array, .object, .null, .date, .duration], description: "a value")
        static let ordered = Parameter(
            accepts: [.number, .string, .date, .duration], description: "a number, a text, a date or a duration")
    }

    /// The parameters of the function for `count` arguments, and the type it gives.
    func signature(arguments count: Int) -> ([Parameter], ExpressionType) {
        switch self {
        case .len: ([.collection], .number)
        case .contains: ([.collection, .any], .bool)
        case .matches: ([Parameter(accepts: [.string, .null], description: "a text"), .text], .bool)
        case .empty: ([.any], .bool)
        case .lower, .upper, .trim: ([.text], .string)
        case .split: ([.text, .text], .array)
        case .join: ([.list, .text], .string)
        case .replace: ([.text, .text, .text], .string)
        case .format: ([.text] + Array(repeating: .any, count: Swift.max(count - 1, 0)), .string)
        case .count: ([.list], .number)
        case .first, .last: ([.list], .unknown)
        case .sum: ([.list], .number)
        case .min, .max: (count == 1 ? [.list] : Array(repeating: .ordered, count: count), .unknown)
        case .pluck: ([.list, .text], .array)
        case .now, .today: ([], .date)
        case .date: ([.date], .date)
        case .days, .hours, .minutes: ([.number], .duration)
        case .formatDate: ([.date, .text], .string)
        }
    }
}
