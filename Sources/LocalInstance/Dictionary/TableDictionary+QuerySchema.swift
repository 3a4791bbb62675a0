extension TableDictionary: QuerySchema {
    /// The type of a field for the query translator; password fields cannot be queried.
    func fieldType(_ field: String, in table: String) -> FieldType? {
        guard let definition = tables[table]?.field(field), !definition.isPassword else { return nil }
        return definition.type
    }
}
