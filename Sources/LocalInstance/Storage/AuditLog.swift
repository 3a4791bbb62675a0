/// The field-level history of records in the platform's `sys_audit` table (``TableDictionary/sysAudit``): one
/// record per field a creation set or an update changed, with the value before and after, who wrote it and when,
/// and one per deletion (`fieldname`, `oldvalue` and `newvalue` `DELETED`, `record_checkpoint` -1), as a PDI keeps
/// them. The Table API reads it as any table, with the access decision of every table (a record is read by those
/// who may read its `tablename`).
///
/// Every write through the Table API's handler is recorded in the write's own transaction, whatever the route (the
/// Table API, the web form, a batch, JSONv2, an import set, the CMDB and Change APIs all write through it), and so
/// are the instance's own inserts and deletions (the Service Catalog's orders and carts, the Attachment API's
/// records); values a table's rules set are part of the write that triggered them. A password field is recorded as
/// changed with both values empty: neither the value nor its hash is kept. The records of one write share an
/// `internal_checkpoint` (16 hexadecimal digits that grow with each write), which orders the writes of one second.
/// A dictionary without `sys_audit` keeps no history.
struct AuditLog: Sendable {
    /// Whether the dictionary has `sys_audit`.
    private let isKept: Bool

    init(dictionary: TableDictionary) {
        isKept = dictionary.table(TableDictionary.sysAudit.name) != nil
    }

    /// The index of a record's history; created with the records' tables.
    static let schema = """
        CREATE INDEX IF NOT EXISTS "sys_audit_documentkey" ON "sys_audit" ("documentkey", "internal_checkpoint");
        """

    /// One insert for every audit record: prepared once by the connection's statement cache.
    private static let insert = """
        INSERT INTO "sys_audit" ("sys_id", "tablename", "documentkey", "fieldname", "oldvalue", "newvalue", "user", \
        "reason", "record_checkpoint", "internal_checkpoint", "sys_created_on", "sys_created_by", "sys_updated_on", \
        "sys_updated_by", "sys_mod_count", "sys_class_name") \
        VALUES (lower(hex(randomblob(16))), ?1, ?2, ?3, ?4, ?5, ?6, '', ?7, ?8, ?9, ?6, ?9, ?6, 0, 'sys_audit')
        """

    /// What a write of one record recorded: its table, sys_id, user, time and checkpoints.
    private struct Write {
        var table: TableDefinition
        var sysID: String
        var user: String
        var time: String
        var checkpoint: Int
        var internalCheckpoint: String
    }

    /// Records the creation of `record` (as stored, with its `sys_id`) in `table`: every field it has a value for,
    /// system fields aside, with an empty value before.
    func recordCreation(
        _ table: TableDefinition, _ record: StoredRecord, user: String, at time: String, _ db: SQLiteConnection
    ) throws {
        guard isKept, let sysID = record["sys_id"] else { return }
        let write = try Self.write(table, sysID, user, time, checkpoint: Int(record["sys_mod_count"] ?? "") ?? 0, db)
        for field in table.fields where !TableDefinition.systemFieldNames.contains(field.name) {
            guard let value = record[field.name], !value.isEmpty else { continue }
            try Self.insert(write, field: field.name, old: "", new: value, secret: field.isPassword, db)
        }
    }

    /// Records the fields of `table` an update of `sysID` changed, from `changes` (field, value before, value
    /// after, in the API's form), in their order; system fields are not recorded. `checkpoint` is the record's
    /// `sys_mod_count` after the update (the platform's `record_checkpoint`).
    func recordUpdate(
        _ table: TableDefinition, sysID: String, changes: [(field: String, old: String, new: String)], user: String,
        at time: String, checkpoint: Int, _ db: SQLiteConnection
    ) throws {
        let recorded = changes.filter { !TableDefinition.systemFieldNames.contains($0.field) }
        guard isKept, !recorded.isEmpty else { return }
        let write = try Self.write(table, sysID, user, time, checkpoint: checkpoint, db)
        for change in recorded {
            let secret = table.field(change.field)?.isPassword ?? false
            try Self.insert(write, field: change.field, old: change.old, new: change.new, secret: secret, db)
        }
    }

    /// The value of `fieldname`, `oldvalue` and `newvalue` of a deletion's record.
    static let deleted = "DELETED"

    /// Records the deletion of the record `sysID` of `table`.
    func recordDeletion(
        _ table: TableDefinition, sysID: String, user: String, at time: String, _ db: SQLiteConnection
    ) throws {
        guard isKept else { return }
        let write = try Self.write(table, sysID, user, time, checkpoint: -1, db)
        try Self.insert(write, field: Self.deleted, old: Self.deleted, new: Self.deleted, secret: false, db)
    }

    /// A write starting now: its internal checkpoint follows the last audit record's.
    private static func write(
        _ table: TableDefinition, _ sysID: String, _ user: String, _ time: String, checkpoint: Int,
        _ db: SQLiteConnection
    ) throws -> Write {
        var last: Int64 = 0
        if case .integer(let rowid) = try db.query("SELECT max(rowid) FROM \"sys_audit\"").first?.first { last = rowid }
        let digits = String(last + 1, radix: 16)
        return Write(
            table: table, sysID: sysID, user: user, time: time, checkpoint: checkpoint,
            internalCheckpoint: String(repeating: "0", count: max(0, 16 - digits.count)) + digits)
    }

    private static func insert(
        _ write: Write, field: String, old: String, new: String, secret: Bool, _ db: SQLiteConnection
    ) throws {
        try db.run(
            insert,
            [
                .text(write.table.name), .text(write.sysID), .text(field), .text(secret ? "" : old),
                .text(secret ? "" : new), .text(write.user), .integer(Int64(write.checkpoint)),
                .text(write.internalCheckpoint), .text(write.time),
            ])
    }
}
