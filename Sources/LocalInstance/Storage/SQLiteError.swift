/// A failure reported by SQLite, with the statement that caused it.
struct SQLiteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// SQLite's (extended) result code.
    var code: Int32
    /// SQLite's message for the failure.
    var message: String
    /// The SQL that failed, empty when opening the database failed.
    var sql: String

    /// Whether SQLite refused the statement for its size (an expression tree deeper than 1000, more than 32,766
    /// variables, a pattern too complex): a query too large to run, not a failure of the instance.
    var isStatementTooLarge: Bool {
        code == 1 // SQLITE_ERROR
            && ["Expression tree is too large", "too many SQL variables", "pattern too complex", "too many terms"]
            .contains { message.contains($0) }
    }

    /// Whether the statement was stopped for running past its time budget (SQLITE_INTERRUPT).
    var isInterrupted: Bool { code & 0xFF == 9 }

    var description: String {
        sql.isEmpty ? "SQLite error \(code): \(message)" : "SQLite error \(code): \(message) - while executing `\(sql)`"
    }
}
