import NowData

extension JSONValue {
    /// The value with every string in it (at any depth, keys left alone) replaced by `transform`'s answer: how
    /// secrets are masked and dates rewritten.
    func mappingStrings(_ transform: (String) -> String) -> JSONValue {
        switch self {
        case .string(let text): .string(transform(text))
        case .array(let items): .array(items.map { $0.mappingStrings(transform) })
        case .object(let members):
            .object(JSONObject(members.map { ($0.key, $0.value.mappingStrings(transform)) }))
        case .null, .bool, .number: self
        }
    }
}
