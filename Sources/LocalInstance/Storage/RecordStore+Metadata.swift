extension RecordStore {
    /// Replaces the records of `sys_db_object`, `sys_dictionary` and `sys_choice` with those the dictionary
    /// gives, in the caller's transaction.
    func rebuildMetadata(timestamp: String, _ db: SQLiteConnection) throws {
        for name in TableDictionary.metadataTableNames.sorted() {
            try db.run("DELETE FROM \"\(name)\"", [])
        }
        for (table, record) in MetadataRecords(dictionary: dictionary, timestamp: timestamp).records {
            try insert(table, record, db)
        }
    }
}
