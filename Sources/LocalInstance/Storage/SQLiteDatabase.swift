import Synchronization

/// A thread-safe SQLite database: one connection for writes, used under a mutex, and for a database file a pool
/// of read-only connections, so that reads run in parallel with each other and with the writer (WAL).
///
/// Every read runs in one read transaction: whatever it selects (a page and its `X-Total-Count`) comes from one
/// snapshot. Every statement has a time budget; past it SQLite stops it and the statement throws an error whose
/// ``SQLiteError/isInterrupted`` is true.
final class SQLiteDatabase: Sendable {
    private let writer: Mutex<SQLiteConnection>
    /// Idle read connections.
    private let readers = Mutex(ReaderPool())
    /// Whether reads have connections of their own (not for an in-memory database: its reads use the writer's).
    private let hasReaders: Bool
    private let path: String
    private let statementBudget: Duration?

    /// The idle readers and whether the database is closed.
    private struct ReaderPool {
        var idle: [SQLiteConnection] = []
        var closed = false
        var active = 0
    }

    /// How many reads run on the pool's connections now.
    var activeReads: Int { readers.withLock { $0.active } }

    /// The most idle read connections kept open; more run while many reads are in flight, then close.
    static let idleReaderLimit = 16

    /// Opens the database at `path` (WAL for files); `":memory:"` opens a private in-memory database.
    ///
    /// - parameter statementBudget: how long one statement may run before it is stopped; nil for no limit.
    init(path: String, statementBudget: Duration? = nil) throws(SQLiteError) {
        self.path = path
        self.statementBudget = statementBudget
        writer = Mutex(try SQLiteConnection(path: path, statementBudget: statementBudget))
        hasReaders = path != ":memory:"
    }

    /// Runs `body` in one read transaction (one snapshot of the database), in parallel with other reads.
    func read<R: Sendable>(_ body: (SQLiteConnection) throws -> R) throws -> R {
        guard hasReaders else {
            return try writer.withLock { connection in try body(connection) }
        }
        let connection: SQLiteConnection
        do {
            connection =
                try readers.withLock { pool throws(SQLiteError) -> SQLiteConnection? in
                    pool.active += 1
                    // SQLITE_MISUSE, as the closed writer reports it.
                    if pool.closed { throw SQLiteError(code: 21, message: "the database is closed", sql: "") }
                    return pool.idle.popLast()
                } ?? SQLiteConnection(path: path, statementBudget: statementBudget, readOnly: true)
        } catch {
            readers.withLock { $0.active -= 1 }
            throw error
        }
        defer {
            let kept = readers.withLock { pool in
                pool.active -= 1
                guard !pool.closed, pool.idle.count < Self.idleReaderLimit else { return false }
                pool.idle.append(connection)
                return true
            }
            if !kept { connection.close() }
        }
        return try connection.readTransaction { try body(connection) }
    }

    /// Runs `body` in one transaction with exclusive use of the writer's connection.
    func write<R: Sendable>(_ body: (SQLiteConnection) throws -> R) throws -> R {
        try writer.withLock { connection in try connection.transaction { try body(connection) } }
    }

    /// Closes the connections (a read in progress closes its own when it ends); later use fails with an error.
    func close() {
        let idle = readers.withLock { pool in
            pool.closed = true
            defer { pool.idle = [] }
            return pool.idle
        }
        for connection in idle { connection.close() }
        writer.withLock { $0.close() }
    }
}
