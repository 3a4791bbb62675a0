import NowData

/// What `validate` knows of the value an expression gives: its kind when literals, declared variables and step
/// result shapes tell it, `unknown` otherwise (a record's field, an environment variable).
enum ExpressionType: Sendable, Hashable {
    case bool, number, string, array, object, null, date, duration, unknown

    init(of value: JSONValue) {
        switch value {
        case .bool: self = .bool
        case .number: self = .number
        case .string: self = .string
        case .array: self = .array
        case .object: self = .object
        case .null: self = .null
        }
    }

    /// `a number`, as run-time messages say it.
    var description: String {
        switch self {
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        case .null: "null"
        case .date: "a date"
        case .duration: "a duration"
        case .unknown: "a value"
        }
    }

    /// The type as a message says it of `expression`, which has it: `a number`, or a literal text as written
    /// (`'abc'`).
    func description(of expression: Expression) -> String {
        if case .literal(.string(let text)) = expression { return "'\(text)'" }
        return description
    }

    /// The type of `steps.<id>.<field>` for a step of `kind`, when the shape says it.
    static func resultField(_ field: String) -> ExpressionType {
        switch field {
        case "count", "status": .number
        case "records", "sys_ids", "results", "fields", "attachments", "groups": .array
        case "record", "outputs", "changes", "headers", "attachment", "stats": .object
        case "sys_id", "result", "path": .string
        case "passed", "changed": .bool
        default: .unknown
        }
    }
}
