import NowData

/// An insert, an update or a deletion made by the instance itself (the Service Catalog's orders and carts, the
/// Attachment API's records, the Change Management API's approvals and conflicts), not by a Table API request. An
/// insert applies the table's defaults, its insert rules (numbering, opening stamps, state effects, ...), the system
/// fields stamped with the acting user and its `sys_script` abort rules, as a POST would, without a POST's role
/// check; an update its update rules and stamps, as a PATCH would, without a PATCH's; all are recorded in the field
/// history (``AuditLog``).
extension TableAPIHandler {
    /// Inserts `values` (valid for their fields) into `table` in the caller's transaction and returns the stored
    /// record.
    func insertRecord(
        _ table: TableDefinition, _ values: StoredRecord, by userName: String, userSysID: String,
        _ timestamp: String, _ db: SQLiteConnection
    ) throws -> StoredRecord {
        var record = StoredRecord()
        for field in table.fields { if let value = field.defaultValue { record[field.name] = value } }
        record.merge(values) { _, new in new }
        let sysID = NowTableService.makeSysID()
        record["sys_id"] = sysID
        try applyInsertRules(table, &record, given: values, timestamp: timestamp, userSysID: userSysID, db)
        record["sys_created_on"] = timestamp
        record["sys_created_by"] = userName
        record["sys_updated_on"] = timestamp
        record["sys_updated_by"] = userName
        record["sys_mod_count"] = "0"
        record["sys_class_name"] = table.name
        try store.insert(table, record, db)
        try checkAbortRules(
            table, sysID: sysID, record: record[table.displayField].flatMap { $0.isEmpty ? nil : $0 } ?? sysID,
            insert: true, db)
        let stored = try store.fetch(table, sysID: sysID, db) ?? record
        try audit.recordCreation(table, stored, user: userName, at: timestamp, db)
        return stored
    }

    /// Updates the record `sysID` of `table` (of its own table) with `values` (valid for their fields) in the
    /// caller's transaction and returns the stored record; nil when there is no such record.
    func updateRecord(
        _ table: TableDefinition, sysID: String, _ values: StoredRecord, by userName: String, _ timestamp: String,
        _ db: SQLiteConnection
    ) throws -> StoredRecord? {
        guard let current = try store.fetch(table, sysID: sysID, db) else { return nil }
        var changes = values
        try applyUpdateRules(table, current: current, &changes, timestamp: timestamp, userName: userName, db)
        changes = changes.filter { name, value in table.field(name) != nil && current[name] != value }
        guard !changes.isEmpty else { return current }
        let count = Int64(current["sys_mod_count"] ?? "") ?? 0
        changes["sys_updated_on"] = timestamp
        changes["sys_updated_by"] = userName
        changes["sys_mod_count"] = String(count == .max ? count : count + 1)
        _ = try store.update(table, sysID: sysID, changes, db)
        try audit.recordUpdate(
            table, sysID: sysID,
            changes: table.fields.compactMap { field in
                changes[field.name].map { (field.name, current[field.name] ?? "", $0) }
            }, user: userName, at: timestamp, checkpoint: Int(changes["sys_mod_count"] ?? "") ?? 0, db)
        let name = current[table.displayField].flatMap { $0.isEmpty ? nil : $0 } ?? sysID
        try checkAbortRules(table, sysID: sysID, record: name, insert: false, db)
        try applyAfterUpdateRules(table, current: current, changes, timestamp: timestamp, userName: userName, db)
        return try store.fetch(table, sysID: sysID, db)
    }

    /// Deletes the record `sysID` of `table` in the caller's transaction and records the deletion in the field
    /// history; false when no such record exists.
    func deleteRecord(_ table: TableDefinition, sysID: String, by userName: String, _ db: SQLiteConnection) throws
        -> Bool
    {
        guard try store.delete(table, sysID: sysID, db) else { return false }
        try audit.recordDeletion(table, sysID: sysID, user: userName, at: Timestamp.string(now()), db)
        return true
    }
}
