import NowData

extension JSONValue {
    /// The value with the members of every object in it sorted by key: how values are shown to a person and in
    /// reports (`:format json`, `--verbose`, `--output json`), so that the same value always reads the same.
    func sortingKeys() -> JSONValue {
        switch self {
        case .array(let items): .array(items.map { $0.sortingKeys() })
        case .object(let members):
            .object(JSONObject(members.sorted { $0.key < $1.key }.map { ($0.key, $0.value.sortingKeys()) }))
        case .null, .bool, .number, .string: self
        }
    }
}
