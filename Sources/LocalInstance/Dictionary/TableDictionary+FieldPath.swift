import NowData

extension TableDictionary {
    /// Walks `path` from `table` through the tables' field definitions (password fields included): what output
    /// fields and the web views resolve a dot-walked name with.
    func fieldWalk(_ path: FieldPath, from table: String) -> FieldPath.Walk<FieldDefinition> {
        path.walk(from: table, field: { self.table($1)?.field($0) }) { field in
            if case .reference(let target) = field.type { target } else { nil }
        }
    }

    /// The field `path` names from `table`, with the reference fields walked through on the way; nil when a name
    /// is unknown or a field before the last is not a reference.
    func walk(_ path: FieldPath, from table: String) -> (hops: [FieldDefinition], field: FieldDefinition)? {
        let walk = fieldWalk(path, from: table)
        guard let leaf = walk.leaf else { return nil }
        return (walk.hops.map(\.field), leaf.field)
    }
}
