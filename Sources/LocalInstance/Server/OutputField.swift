/// One key of a rendered record: a field of the table, or a dot-walked path such as `caller_id.name`.
struct OutputField: Sendable {
    /// The key in the response (`caller_id.name` for a dot-walked field).
    var key: String
    /// The reference fields walked through, in order (empty for a field of the table itself).
    var hops: [FieldDefinition]
    /// The field whose value is rendered.
    var field: FieldDefinition

    /// The keys to render for `sysparm_fields` (nil: every field but passwords); invalid names are ignored,
    /// as on the platform.
    static func resolve(_ names: [String]?, in table: TableDefinition, dictionary: TableDictionary) -> [OutputField] {
        guard let names else { return table.visibleFields.map { OutputField(key: $0.name, hops: [], field: $0) } }
        return names.compactMap { name in
            var current = table
            var hops: [FieldDefinition] = []
            let parts = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            for part in parts.dropLast() {
                guard let hop = current.field(part), case .reference(let target) = hop.type,
                    let next = dictionary.table(target)
                else { return nil }
                hops.append(hop)
                current = next
            }
            guard let last = parts.last, let field = current.field(last), !field.isPassword else { return nil }
            return OutputField(key: name, hops: hops, field: field)
        }
    }
}
