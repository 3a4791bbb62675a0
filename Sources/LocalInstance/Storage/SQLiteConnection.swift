internal import CSQLite
import Foundation

/// One SQLite connection with a cache of prepared statements. It is not thread-safe on its own: it is only used
/// under ``SQLiteDatabase``'s mutex, which is what the unchecked `Sendable` conformance relies on.
final class SQLiteConnection: @unchecked Sendable {
    private var handle: OpaquePointer?
    private var statements: [String: CachedStatement] = [:]
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
    /// Beyond this many cached statements the cache is emptied (queries of many shapes, such as long IN lists).
    private static let statementCacheLimit = 256
    /// The most of a database file read through a memory map (256 MB).
    private static let mmapSize = 256 * 1024 * 1024
    /// When the statement running now must stop (read by SQLite's progress handler, on this connection's thread).
    private let deadline = StatementDeadline()
    /// How long one statement may run, in nanoseconds; nil for no limit.
    private var budgetNanoseconds: UInt64?

    /// Opens (creating if needed) the database at `path`; `":memory:"` opens a private in-memory database.
    ///
    /// - parameter statementBudget: how long one statement may run before SQLite stops it (nil: no limit).
    /// - parameter readOnly: whether the connection only reads (`PRAGMA query_only`), as the read pool's do.
    /// - parameter synced: whether a file's commits reach the disk at checkpoints (`synchronous=NORMAL`); false for
    ///   a temporary database, whose content is not meant to outlive the process (`synchronous=OFF`).
    init(
        path: String, busyTimeoutMilliseconds: Int32 = 5000, statementBudget: Duration? = nil, readOnly: Bool = false,
        synced: Bool = true
    ) throws(SQLiteError) {
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &db, flags, nil)
        guard code == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open database"
            sqlite3_close(db)
            throw SQLiteError(code: .init(rawValue: code), message: "\(message) (\(path))", sql: "")
        }
        handle = db
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, busyTimeoutMilliseconds)
        if let statementBudget {
            let (seconds, attoseconds) = statementBudget.components
            // At most a year, so that the deadline cannot wrap around.
            budgetNanoseconds =
                UInt64(clamping: min(seconds, 31_536_000)) * 1_000_000_000
                + UInt64(clamping: attoseconds / 1_000_000_000)
            // Every 100 virtual machine instructions SQLite asks whether to go on: past the deadline, no.
            sqlite3_progress_handler(db, 100, { context in
                guard let context else { return 0 }
                let deadline = Unmanaged<StatementDeadline>.fromOpaque(context).takeUnretainedValue()
                return deadline.isPast ? 1 : 0
            }, Unmanaged.passUnretained(deadline).toOpaque())
        }
        let replaced = Self.replaceLike(on: db, deadline: deadline)
        guard replaced == SQLITE_OK else { throw failure(replaced, "") }
        if path != ":memory:" {
            try execute("PRAGMA journal_mode=WAL")
            try execute(synced ? "PRAGMA synchronous=NORMAL" : "PRAGMA synchronous=OFF")
            // Reads map the file instead of copying each page through a read() call (the count of a large
            // table reads every page); SQLite caps the size at its compile-time limit.
            try execute("PRAGMA mmap_size=\(Self.mmapSize)")
        }
        if readOnly { try execute("PRAGMA query_only=1") }
    }

    deinit { close() }

    /// Finalizes every cached statement and closes the connection; later calls fail.
    func close() {
        for statement in statements.values { sqlite3_finalize(statement.handle) }
        statements.removeAll()
        if let handle { sqlite3_close_v2(handle) }
        handle = nil
    }

    /// Runs SQL without parameters or results (DDL, pragmas, transaction control); it may hold several statements.
    func execute(_ sql: String) throws(SQLiteError) {
        let db = try open(sql)
        if let budgetNanoseconds { deadline.start(budget: budgetNanoseconds) }
        defer { deadline.clear() }
        var error: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(db, sql, nil, nil, &error)
        if code != SQLITE_OK {
            let message = error.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(db))
            sqlite3_free(error)
            throw SQLiteError(code: .init(rawValue: code), message: message, sql: sql)
        }
    }

    /// Runs one statement with bound parameters and returns its rows (column values in select order).
    @discardableResult
    func query(_ sql: String, _ parameters: [SQLValue] = []) throws(SQLiteError) -> [[SQLValue]] {
        var rows: [[SQLValue]] = []
        try each(sql, parameters) { rows.append($0) }
        return rows
    }

    /// Runs one statement with bound parameters and returns the number of rows it changed.
    @discardableResult
    func run(_ sql: String, _ parameters: [SQLValue] = []) throws(SQLiteError) -> Int {
        try each(sql, parameters) { _ in }
        return handle.map { Int(sqlite3_changes($0)) } ?? 0
    }

    /// Runs one query and returns its rows in API form. `layout` works out how its columns map onto fields from
    /// their names, once per prepared statement: the same SQL must always get the same layout.
    func rows(_ sql: String, _ parameters: [SQLValue], layout: ([String]) -> ColumnLayout) throws(SQLiteError)
        -> RecordRows
    {
        let cached = try prepared(sql)
        let statement = cached.handle
        let columnLayout: ColumnLayout
        if let known = cached.layout {
            columnLayout = known
        } else {
            columnLayout = layout(
                (0..<sqlite3_column_count(statement)).map { String(cString: sqlite3_column_name(statement, $0)) })
            cached.layout = columnLayout
        }
        var rows = RecordRows(layout: columnLayout)
        let forms = columnLayout.forms
        try step(statement, sql, parameters) {
            for (column, form) in forms.enumerated() {
                guard let form else {
                    rows.append("")
                    continue
                }
                rows.append(FieldDefinition.apiValue(value(statement, Int32(column)), form: form))
            }
        }
        return rows
    }

    /// Runs `body` in a read transaction: every statement in it sees the same snapshot of the database.
    func readTransaction<R>(_ body: () throws -> R) throws -> R {
        // Prepared once and kept, as `execute` would parse them again for every request.
        try run("BEGIN DEFERRED")
        defer { _ = try? run("COMMIT") }
        return try body()
    }

    /// Runs `body` in a transaction, committed when it returns and rolled back when it throws.
    func transaction<R>(_ body: () throws -> R) throws -> R {
        try run("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try run("COMMIT")
            return result
        } catch {
            _ = try? run("ROLLBACK")
            throw error
        }
    }

    private func each(_ sql: String, _ parameters: [SQLValue], _ row: ([SQLValue]) -> Void) throws(SQLiteError) {
        let statement = try prepared(sql).handle
        let columns = sqlite3_column_count(statement)
        try step(statement, sql, parameters) {
            var values: [SQLValue] = []
            values.reserveCapacity(Int(columns))
            for column in 0..<columns { values.append(value(statement, column)) }
            row(values)
        }
    }

    /// Binds `parameters` to `statement`, calls `row` for each row of its result, then resets it.
    private func step(_ statement: OpaquePointer, _ sql: String, _ parameters: [SQLValue], _ row: () -> Void)
        throws(SQLiteError)
    {
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        if let budgetNanoseconds { deadline.start(budget: budgetNanoseconds) }
        defer { deadline.clear() }
        for (index, parameter) in parameters.enumerated() {
            let position = Int32(index + 1)
            let code: Int32
            switch parameter {
            case .text(let text):
                // By its byte length, not as a C string: a value holding U+0000 keeps the bytes after it.
                code = text.withCString { bytes in
                    sqlite3_bind_text64(
                        statement, position, bytes, sqlite3_uint64(text.utf8.count), Self.transient,
                        UInt8(SQLITE_UTF8))
                }
            case .integer(let value): code = sqlite3_bind_int64(statement, position, value)
            case .real(let value): code = sqlite3_bind_double(statement, position, value)
            case .null: code = sqlite3_bind_null(statement, position)
            }
            guard code == SQLITE_OK else { throw failure(code, sql) }
        }
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else { throw failure(code, sql) }
            row()
        }
    }

    /// The value in `column` of the statement's current row.
    private func value(_ statement: OpaquePointer, _ column: Int32) -> SQLValue {
        switch sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, column))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, column))
        case SQLITE_NULL: return .null
        default:
            guard let text = sqlite3_column_text(statement, column) else { return .null }
            let count = Int(sqlite3_column_bytes(statement, column))
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        }
    }

    private func prepared(_ sql: String) throws(SQLiteError) -> CachedStatement {
        if let statement = statements[sql] { return statement }
        let db = try open(sql)
        if statements.count >= Self.statementCacheLimit {
            for statement in statements.values { sqlite3_finalize(statement.handle) }
            statements.removeAll()
        }
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(db, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else { throw failure(code, sql) }
        let cached = CachedStatement(statement)
        statements[sql] = cached
        return cached
    }

    private func open(_ sql: String) throws(SQLiteError) -> OpaquePointer {
        guard let handle else { throw SQLiteError(code: .misuse, message: "the database is closed", sql: sql) }
        return handle
    }

    private func failure(_ code: Int32, _ sql: String) -> SQLiteError {
        let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "the database is closed"
        return SQLiteError(code: .init(rawValue: code), message: message, sql: sql)
    }
}
