import NowData
/// One key of a rendered record: a field of the table, or a dot-walked path such as `caller_id.name`.
///
/// A class, so that rendering a page hands the same instance to every row instead of copying the definitions.
final class OutputField: Sendable {
    /// The key in the response (`caller_id.name` for a dot-walked field).
    let key: String
    /// `"key":` in JSON.
    let encodedKey: [UInt8]
    /// The reference fields walked through, in order (empty for a field of the table itself).
    let hops: [FieldDefinition]
    /// The field whose value is rendered.
    let field: FieldDefinition
    /// The field of the record itself that the key is read from: the field, or the first reference walked through.
    let source: String
    /// The path of a reference's link after the API's base and before the sys_id (`table/sys_user/`); nil for other
    /// fields.
    let linkPath: String?

    init(key: String, hops: [FieldDefinition], field: FieldDefinition) {
        self.key = key
        encodedKey = JSONWriter.encodedKey(key)
        self.hops = hops
        self.field = field
        source = hops.first?.name ?? field.name
        if case .reference(let target) = field.type {
            linkPath = "table/\(target)/"
        } else {
            linkPath = nil
        }
    }

    /// The keys to render for `sysparm_fields` (nil: every field); invalid names are ignored, as on the platform.
    /// A password field is rendered masked (see ``RecordRenderer``).
    static func resolve(_ names: [String]?, in table: TableDefinition, dictionary: TableDictionary) -> [OutputField] {
        guard let names else { return table.fields.map { OutputField(key: $0.name, hops: [], field: $0) } }
        return names.compactMap { name in
            guard let leaf = dictionary.walk(FieldPath(name), from: table.name) else { return nil }
            return OutputField(key: name, hops: leaf.hops, field: leaf.field)
        }
    }
}
