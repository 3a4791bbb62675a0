import NowData

extension JSONValue {
    /// Whether the value is empty as `empty(x)` sees it: null, an empty string, an empty array or an empty object.
    var isEmpty: Bool {
        switch self {
        case .null: true
        case .string(let value): value.isEmpty
        case .array(let items): items.isEmpty
        case .object(let members): members.isEmpty
        case .bool, .number: false
        }
    }
}
