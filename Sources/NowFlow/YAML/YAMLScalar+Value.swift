extension YAMLScalar {
    /// The scalar as a job value: `null`, a boolean, a number or a text.
    var value: Value {
        switch self {
        case .null: .null
        case .bool(let flag): .bool(flag)
        case .int(let number): .int(number)
        case .double(let number): .double(number)
        case .string(let text): .string(text)
        }
    }
}
