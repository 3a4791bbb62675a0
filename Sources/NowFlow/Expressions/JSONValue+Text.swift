import NowData

extension JSONValue {
    /// The text a value becomes inside a template, a field or a query: a string as it is, a number as its text
    /// (`2800`, `0.10`: as written in the job file or sent by the instance), null as empty, `true`/`false`, and
    /// an array or object as compact JSON with its keys sorted.
    var text: String {
        switch self {
        case .null: ""
        case .bool(let value): value ? "true" : "false"
        case .number(let number): number.text
        case .string(let value): value
        case .array, .object: sortingKeys().jsonText()
        }
    }

    /// The value in a few words, for summaries and assertion messages: a text quoted, anything cut to 60
    /// characters with `...`.
    var brief: String {
        let text: String
        switch self {
        case .string(let string): text = "'\(string)'"
        case .null: text = "null"
        default: text = self.text
        }
        return text.count > 60 ? String(text.prefix(57)) + "..." : text
    }
}
