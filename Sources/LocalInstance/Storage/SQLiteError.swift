/// A failure reported by SQLite, with the statement that caused it.
struct SQLiteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// SQLite's (extended) result code.
    var code: Int32
    /// SQLite's message for the failure.
    var message: String
    /// The SQL that failed, empty when opening the database failed.
    var sql: String

    var description: String {
        sql.isEmpty ? "SQLite error \(code): \(message)" : "SQLite error \(code): \(message) - while executing `\(sql)`"
    }
}
