import Foundation

/// The records of every table in SQLite: one SQLite table per dictionary table, one column per field
/// (always double-quoted), indexes on sys_id (unique), number and the sys dates; plus the number counters.
///
/// A table that others extend (`task`, `cmdb_ci`) is read, in every query that names it, through a common table
/// expression of the same name: its own rows and those of its descendants (`incident`, ...) on its columns. So a
/// list of `task` holds incidents, and a reference to `cmdb_ci` finds a server. Writes go to the record's own table.
struct RecordStore: Sendable {
    let dictionary: TableDictionary
    /// `("\"task\"", "\"task\" AS (SELECT ... UNION ALL ...)")` for each extended table.
    private let hierarchies: [(name: String, definition: String)]
    /// The statement that reads one record by sys_id, by table: written once, not per request.
    private let fetchStatements: [String: String]

    init(dictionary: TableDictionary) {
        self.dictionary = dictionary
        let hierarchies = dictionary.tableNames.compactMap { name -> (name: String, definition: String)? in
            let descendants = dictionary.descendants(of: name)
            guard let table = dictionary.table(name), !descendants.isEmpty else { return nil }
            let columns = table.fields.map { Self.quoted($0.name) }.joined(separator: ", ")
            let parts = ([table] + descendants).map { member in
                "SELECT \(columns), rowid AS \"rowid\" FROM main.\(Self.quoted(member.name))"
            }
            return (Self.quoted(name), "\(Self.quoted(name)) AS (\(parts.joined(separator: " UNION ALL ")))")
        }
        self.hierarchies = hierarchies
        fetchStatements = Dictionary(
            dictionary.tableNames.map { name in
                (name, Self.selectStatement(name, where: Self.sysIDCondition, orderBy: "", hierarchies))
            },
            uniquingKeysWith: { first, _ in first })
    }

    private static let sysIDCondition = "\"sys_id\" = ?"

    /// The statement of a read of `table`: `SELECT *` with the condition and order, a page (`LIMIT ? OFFSET ?`)
    /// and the hierarchies it names (a `WITH` prefix).
    private static func selectStatement(
        _ table: String, where condition: String, orderBy: String,
        _ hierarchies: [(name: String, definition: String)]
    ) -> String {
        var sql = "SELECT * FROM \(quoted(table))"
        if !condition.isEmpty { sql += " WHERE \(condition)" }
        sql += " ORDER BY " + (orderBy.isEmpty ? "rowid" : orderBy + ", rowid") + " LIMIT ? OFFSET ?"
        return withHierarchies(sql, hierarchies)
    }

    /// `sql` with the hierarchies it names (a `WITH` prefix), for a read.
    func withHierarchies(_ sql: String) -> String {
        Self.withHierarchies(sql, hierarchies)
    }

    private static func withHierarchies(_ sql: String, _ hierarchies: [(name: String, definition: String)]) -> String
    {
        let used = hierarchies.filter { holds(sql, $0.name) }
        guard !used.isEmpty else { return sql }
        return "WITH " + used.map(\.definition).joined(separator: ", ") + " " + sql
    }

    /// Creates the tables, the missing columns of existing tables, the indexes and the bookkeeping tables.
    func createSchema(_ db: SQLiteConnection) throws {
        try db.execute(
            """
            CREATE TABLE IF NOT EXISTS "sys_number_counter" ("table_name" TEXT PRIMARY KEY, "next" INTEGER NOT NULL);
            CREATE TABLE IF NOT EXISTS "nowflow_meta" ("key" TEXT PRIMARY KEY, "value" TEXT);
            """)
        for name in dictionary.tableNames {
            guard let table = dictionary.table(name) else { continue }
            let columns = table.fields.map { "\(quoted($0.name)) \($0.columnType)" }.joined(separator: ", ")
            try db.execute("CREATE TABLE IF NOT EXISTS \(quoted(name)) (\(columns))")
            let existing = Set(
                try db.query("SELECT name FROM pragma_table_info(?)", [.text(name)]).compactMap { row in
                    if case .text(let column) = row.first { column } else { nil }
                })
            for field in table.fields where !existing.contains(field.name) {
                try db.execute("ALTER TABLE \(quoted(name)) ADD COLUMN \(quoted(field.name)) \(field.columnType)")
            }
            try db.execute(
                "CREATE UNIQUE INDEX IF NOT EXISTS \(quoted(name + "_sys_id")) ON \(quoted(name)) (\"sys_id\")")
            for column in ["number", "sys_created_on", "sys_updated_on"] where table.field(column) != nil {
                try db.execute(
                    "CREATE INDEX IF NOT EXISTS \(quoted(name + "_" + column)) ON \(quoted(name)) (\(quoted(column)))")
            }
        }
        if dictionary.table(TableDictionary.sysAudit.name) != nil { try db.execute(AuditLog.schema) }
    }

    /// Inserts a record whose values are already valid for their fields.
    func insert(_ table: TableDefinition, _ record: StoredRecord, _ db: SQLiteConnection) throws {
        let fields = table.fields.filter { record[$0.name] != nil }
        let sql =
            "INSERT INTO \(quoted(table.name)) (\(fields.map { quoted($0.name) }.joined(separator: ", "))) VALUES ("
            + Array(repeating: "?", count: fields.count).joined(separator: ", ") + ")"
        try db.run(sql, fields.map { $0.storedValue(record[$0.name] ?? "") ?? .null })
    }

    /// Updates the given fields of the record `sysID`; false when no such record exists.
    func update(_ table: TableDefinition, sysID: String, _ values: StoredRecord, _ db: SQLiteConnection) throws -> Bool
    {
        let fields = table.fields.filter { values[$0.name] != nil }
        guard !fields.isEmpty else { return try fetch(table, sysID: sysID, db) != nil }
        let sql =
            "UPDATE \(quoted(table.name)) SET " + fields.map { "\(quoted($0.name)) = ?" }.joined(separator: ", ")
            + " WHERE \"sys_id\" = ?"
        return try db.run(sql, fields.map { $0.storedValue(values[$0.name] ?? "") ?? .null } + [.text(sysID)]) > 0
    }

    /// Deletes the record `sysID`; false when no such record exists.
    func delete(_ table: TableDefinition, sysID: String, _ db: SQLiteConnection) throws -> Bool {
        try db.run("DELETE FROM \(quoted(table.name)) WHERE \"sys_id\" = ?", [.text(sysID)]) > 0
    }

    /// The record `sysID`, if it exists.
    func fetch(_ table: TableDefinition, sysID: String, _ db: SQLiteConnection) throws -> StoredRecord? {
        let rows = try fetchRows(table, sysID: sysID, db)
        return rows.count == 0 ? nil : rows.record(0)
    }

    /// The record `sysID` as rows: one, or none when it does not exist.
    func fetchRows(_ table: TableDefinition, sysID: String, _ db: SQLiteConnection) throws -> RecordRows {
        let sql =
            fetchStatements[table.name]
            ?? Self.selectStatement(table.name, where: Self.sysIDCondition, orderBy: "", hierarchies)
        return try read(sql, [.text(sysID), .integer(1), .integer(0)], table, db)
    }

    /// The records matching an SQL condition (with `?` placeholders), in order, one page of them.
    func select(
        _ table: TableDefinition, where condition: String, _ parameters: [SQLValue], orderBy: String, limit: Int,
        offset: Int, _ db: SQLiteConnection
    ) throws -> [StoredRecord] {
        let rows = try selectRows(
            table, where: condition, parameters, orderBy: orderBy, limit: limit, offset: offset, db)
        return (0..<rows.count).map(rows.record)
    }

    /// The records matching an SQL condition (with `?` placeholders), in order, one page of them, as rows.
    func selectRows(
        _ table: TableDefinition, where condition: String, _ parameters: [SQLValue], orderBy: String, limit: Int,
        offset: Int, _ db: SQLiteConnection
    ) throws -> RecordRows {
        let sql = Self.selectStatement(table.name, where: condition, orderBy: orderBy, hierarchies)
        return try read(sql, parameters + [.integer(Int64(limit)), .integer(Int64(offset))], table, db)
    }

    /// The rows of a `SELECT *` statement over `table`.
    private func read(_ sql: String, _ parameters: [SQLValue], _ table: TableDefinition, _ db: SQLiteConnection)
        throws -> RecordRows
    {
        try db.rows(sql, parameters, layout: { names in ColumnLayout(names: names, table: table) })
    }

    /// How many records match an SQL condition.
    func count(_ table: TableDefinition, where condition: String, _ parameters: [SQLValue], _ db: SQLiteConnection)
        throws
        -> Int
    {
        var sql = "SELECT count(*) FROM \(quoted(table.name))"
        if !condition.isEmpty { sql += " WHERE \(condition)" }
        if case .integer(let count) = try db.query(withHierarchies(sql), parameters).first?.first { return Int(count) }
        return 0
    }

    /// The next auto-number of a numbered table (`INC0010001`), counted in the database.
    func nextNumber(_ table: TableDefinition, _ db: SQLiteConnection) throws -> String? {
        guard let prefix = table.numberPrefix else { return nil }
        try db.run(
            "INSERT OR IGNORE INTO \"sys_number_counter\" (\"table_name\", \"next\") VALUES (?, ?)",
            [.text(table.name), .integer(Int64(table.numberStart))])
        var next = Int64(table.numberStart)
        if case .integer(let stored) = try db.query(
            "SELECT \"next\" FROM \"sys_number_counter\" WHERE \"table_name\" = ?", [.text(table.name)]
        ).first?.first {
            next = stored
        }
        try db.run(
            "UPDATE \"sys_number_counter\" SET \"next\" = ? WHERE \"table_name\" = ?",
            [.integer(next + 1), .text(table.name)])
        let digits = String(next)
        return prefix + String(repeating: "0", count: max(0, 7 - digits.count)) + digits
    }

    /// A bookkeeping value, such as whether the demo data was seeded.
    func meta(_ key: String, _ db: SQLiteConnection) throws -> String? {
        if case .text(let value) = try db.query(
            "SELECT \"value\" FROM \"nowflow_meta\" WHERE \"key\" = ?", [.text(key)]
        )
        .first?.first {
            return value
        }
        return nil
    }

    /// Sets a bookkeeping value.
    func setMeta(_ key: String, _ value: String, _ db: SQLiteConnection) throws {
        try db.run(
            "INSERT OR REPLACE INTO \"nowflow_meta\" (\"key\", \"value\") VALUES (?, ?)", [.text(key), .text(value)])
    }

    /// Whether `text` holds `part`, byte for byte (the SQL and the quoted names are ASCII).
    private static func holds(_ text: String, _ part: String) -> Bool {
        var text = text
        var part = part
        return text.withUTF8 { text in
            part.withUTF8 { part in
                guard part.count <= text.count else { return false }
                return (0...text.count - part.count).contains { start in
                    UnsafeBufferPointer(rebasing: text[start..<start + part.count]).elementsEqual(part)
                }
            }
        }
    }

    private func quoted(_ name: String) -> String {
        Self.quoted(name)
    }

    private static func quoted(_ name: String) -> String {
        guard name.utf8.contains(UInt8(ascii: "\"")) else { return "\"" + name + "\"" }
        return "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
