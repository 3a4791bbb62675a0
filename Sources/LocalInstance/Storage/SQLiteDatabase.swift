import Synchronization

/// A thread-safe SQLite database: one connection used under a mutex.
final class SQLiteDatabase: Sendable {
    private let connection: Mutex<SQLiteConnection>

    /// Opens the database at `path` (WAL for files); `":memory:"` opens a private in-memory database.
    init(path: String) throws(SQLiteError) {
        connection = Mutex(try SQLiteConnection(path: path))
    }

    /// Runs `body` with exclusive use of the connection.
    func read<R: Sendable>(_ body: (SQLiteConnection) throws -> R) throws -> R {
        try connection.withLock { connection in try body(connection) }
    }

    /// Runs `body` in one transaction with exclusive use of the connection.
    func write<R: Sendable>(_ body: (SQLiteConnection) throws -> R) throws -> R {
        try connection.withLock { connection in try connection.transaction { try body(connection) } }
    }

    /// Closes the connection; later use fails with an error.
    func close() {
        connection.withLock { $0.close() }
    }
}
