import NowData

extension YAMLScalar {
    /// The scalar as a job value: null, a boolean, a number (with its text) or a string; nil for `.inf` and
    /// `.nan`, which JSON cannot hold.
    var value: JSONValue? {
        switch self {
        case .null: .null
        case .bool(let flag): .bool(flag)
        case .number(let number): .number(number)
        case .nonFinite: nil
        case .string(let text): .string(text)
        }
    }
}
