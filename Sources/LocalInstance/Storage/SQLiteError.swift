/// A failure reported by SQLite, with the statement that caused it.
struct SQLiteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A result code of SQLite's C interface, extended (`SQLITE_IOERR_READ`) or primary (`SQLITE_IOERR`), as GRDB's
    /// `ResultCode`: failures are classified by it, never by their message.
    struct ResultCode: RawRepresentable, Sendable, Hashable, ExpressibleByIntegerLiteral, CustomStringConvertible {
        var rawValue: Int32

        init(rawValue: Int32) {
            self.rawValue = rawValue
        }

        init(integerLiteral value: Int32) {
            rawValue = value
        }

        /// The primary code of an extended one: its low byte (`SQLITE_IOERR` for `SQLITE_IOERR_READ`).
        var primary: ResultCode { ResultCode(rawValue: rawValue & 0xFF) }

        /// `SQLITE_ERROR`: the generic failure of a statement, which is also how SQLite refuses one for its size
        /// (an expression tree deeper than 1000, more than 32,766 variables, a pattern too complex).
        static let error: ResultCode = 1
        /// `SQLITE_INTERRUPT`: the statement was interrupted (past its time budget).
        static let interrupt: ResultCode = 9
        /// `SQLITE_CANTOPEN`: the database file cannot be opened or created.
        static let cantOpen: ResultCode = 14
        /// `SQLITE_MISUSE`: the interface was used out of order (a closed database).
        static let misuse: ResultCode = 21

        var description: String { String(rawValue) }
    }

    /// SQLite's (extended) result code.
    var code: ResultCode
    /// SQLite's message for the failure.
    var message: String
    /// The SQL that failed, empty when opening the database failed.
    var sql: String

    /// Whether the statement was stopped for running past its time budget (`SQLITE_INTERRUPT`).
    var isInterrupted: Bool { code.primary == .interrupt }

    var description: String {
        sql.isEmpty ? "SQLite error \(code): \(message)" : "SQLite error \(code): \(message) - while executing `\(sql)`"
    }
}
