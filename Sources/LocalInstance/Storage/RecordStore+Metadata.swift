extension RecordStore {
    /// Replaces the generated records of `sys_db_object`, `sys_dictionary`, `sys_documentation` and `sys_choice`
    /// with those the dictionary gives, in the caller's transaction (choices a client added stay).
    func rebuildMetadata(timestamp: String, _ db: SQLiteConnection) throws {
        for name in TableDictionary.metadataTableNames.sorted() {
            // The generated records are the system's; choices clients added are kept.
            try db.run("DELETE FROM \"\(name)\" WHERE \"sys_created_by\" IS 'system'", [])
        }
        for (table, record) in MetadataRecords(dictionary: dictionary, timestamp: timestamp).records {
            try insert(table, record, db)
        }
    }
}
