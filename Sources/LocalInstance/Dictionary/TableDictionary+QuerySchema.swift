import NowData

extension TableDictionary: QuerySchema {
    /// The type of a field for the query translator; password fields cannot be queried.
    func fieldType(_ field: String, in table: String) -> FieldType? {
        guard let definition = tables[table]?.field(field), !definition.isPassword else { return nil }
        return definition.type
    }

    /// The display field of a table, by which an `ORDERBY` on a reference sorts.
    func displayField(of table: String) -> String? {
        tables[table]?.displayField
    }

    /// The password fields (`password2`) of a table, which the query translator treats as absent.
    func passwordFields(of table: String) -> [String] {
        tables[table]?.fields.filter(\.isPassword).map(\.name) ?? []
    }
}
