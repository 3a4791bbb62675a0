/// A record as the store holds it: every field's value as the Table API writes it (`""` for empty).
typealias StoredRecord = [String: String]

extension StoredRecord {
    /// Stamps a new record's system fields: created and last updated at `timestamp` by `user`, never modified.
    mutating func stampCreation(by user: String, at timestamp: String) {
        self["sys_created_on"] = timestamp
        self["sys_created_by"] = user
        self["sys_updated_on"] = timestamp
        self["sys_updated_by"] = user
        self["sys_mod_count"] = "0"
    }

    /// A record of `table` the instance makes itself: `values` (with its `sys_id`), created by `system` at
    /// `timestamp`, of the class `table`.
    static func system(_ values: StoredRecord, of table: TableDefinition, at timestamp: String) -> StoredRecord {
        var record = values
        record.stampCreation(by: "system", at: timestamp)
        record["sys_class_name"] = table.name
        return record
    }
}
