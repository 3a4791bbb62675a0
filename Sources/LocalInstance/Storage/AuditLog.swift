/// The field-level history of records, as the platform's `sys_audit` keeps it: one row per field an update changed,
/// with the value before and after, who wrote it and when, kept in the database beside the records
/// (`nowflow_audit`) so that it lasts as long as they do.
///
/// Every update through the Table API's handler is recorded, whatever the route (the Table API, the web form, a
/// batch, an import set, the CMDB and Change APIs all write through it): ``record(_:sysID:changes:user:at:checkpoint:_:)``
/// is called where the handler updates a record. A password field is recorded as changed, never with its values.
enum AuditLog {
    /// One field's change.
    struct Entry: Sendable, Hashable {
        var table: String
        var sysID: String
        var field: String
        /// The stored value before and after; nil for a password field.
        var oldValue: String?
        var newValue: String?
        var user: String
        /// UTC `yyyy-MM-dd HH:mm:ss`.
        var time: String
    }

    /// The table, created with the records' tables.
    static let schema = """
        CREATE TABLE IF NOT EXISTS "nowflow_audit" ("table_name" TEXT NOT NULL, "document_key" TEXT NOT NULL, \
        "field_name" TEXT NOT NULL, "old_value" TEXT, "new_value" TEXT, "user" TEXT NOT NULL, \
        "created_on" TEXT NOT NULL, "record_checkpoint" INTEGER NOT NULL);
        CREATE INDEX IF NOT EXISTS "nowflow_audit_document" ON "nowflow_audit" ("document_key", "created_on");
        CREATE INDEX IF NOT EXISTS "nowflow_audit_created_on" ON "nowflow_audit" ("created_on");
        """

    /// Records the fields of `table` an update of `sysID` changed, from `changes` (field, value before, value
    /// after, in the API's form), in their order; system fields are not recorded. `checkpoint` is the record's
    /// `sys_mod_count` after the update (the platform's `record_checkpoint`), which orders the updates of one second.
    static func record(
        _ table: TableDefinition, sysID: String, changes: [(field: String, old: String, new: String)], user: String,
        at time: String, checkpoint: Int, _ db: SQLiteConnection
    ) throws {
        for change in changes where !TableDefinition.systemFieldNames.contains(change.field) {
            let secret = table.field(change.field)?.isPassword ?? false
            try db.run(
                """
                INSERT INTO "nowflow_audit" ("table_name", "document_key", "field_name", "old_value", "new_value", \
                "user", "created_on", "record_checkpoint") VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .text(table.name), .text(sysID), .text(change.field), secret ? .null : .text(change.old),
                    secret ? .null : .text(change.new), .text(user), .text(time), .integer(Int64(checkpoint)),
                ])
        }
    }

    /// The most entries a read gives.
    static let readLimit = 500

    /// The changes of the record `sysID`, the newest update first, the fields of one update in their order.
    static func entries(of sysID: String, _ db: SQLiteConnection) throws -> [Entry] {
        try entries(where: "\"document_key\" = ?", [.text(sysID)], db)
    }

    /// The changes on or after `since` (UTC `yyyy-MM-dd HH:mm:ss`), the newest update first.
    static func entries(since: String, _ db: SQLiteConnection) throws -> [Entry] {
        try entries(where: "\"created_on\" >= ?", [.text(since)], db)
    }

    /// The entries matching `condition`, read newest first (rowids grow with each insert), then the fields of each
    /// update (one record, one checkpoint) put back in the order they were recorded.
    private static func entries(where condition: String, _ parameters: [SQLValue], _ db: SQLiteConnection) throws
        -> [Entry]
    {
        let rows = try db.query(
            """
            SELECT "table_name", "document_key", "field_name", "old_value", "new_value", "user", "created_on", \
            "record_checkpoint" FROM "nowflow_audit" WHERE \(condition) ORDER BY rowid DESC LIMIT \(readLimit)
            """, parameters)
        var updates: [(key: [SQLValue], entries: [Entry])] = []
        for row in rows {
            func text(_ index: Int) -> String? {
                if case .text(let value) = row[index] { value } else { nil }
            }
            let entry = Entry(
                table: text(0) ?? "", sysID: text(1) ?? "", field: text(2) ?? "", oldValue: text(3),
                newValue: text(4), user: text(5) ?? "", time: text(6) ?? "")
            let key = [row[1], row[7]]
            if updates.last?.key == key {
                updates[updates.count - 1].entries.insert(entry, at: 0)
            } else {
                updates.append((key, [entry]))
            }
        }
        return updates.flatMap(\.entries)
    }
}
