import Foundation
import Synchronization
#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A thread-safe SQLite database: one connection for writes, used under a mutex, and a pool of read-only
/// connections, so that reads run in parallel with each other and with the writer (WAL).
///
/// Every read runs in one read transaction: whatever it selects (a page and its `X-Total-Count`) comes from one
/// snapshot. Every statement has a time budget; past it SQLite stops it and the statement throws an error whose
/// ``SQLiteError/isInterrupted`` is true.
///
/// `":memory:"` is a private temporary database file, in a directory of its own in the temporary directory, removed
/// when the database is closed (or released): SQLite's in-memory databases have one connection, so a slow read
/// would hold up every other, and the shared-cache ones trade the snapshots for table locks. The file keeps WAL's
/// snapshots and parallel readers; it is never synced (`synchronous=OFF`), as nothing of it is meant to last.
final class SQLiteDatabase: Sendable {
    private let writer: Mutex<SQLiteConnection>
    /// Idle read connections.
    private let readers = Mutex(ReaderPool())
    private let path: String
    private let statementBudget: Duration?
    /// The directory of the temporary file behind `":memory:"`, removed with the database; nil for a named file.
    let temporaryDirectory: URL?

    /// The idle readers and whether the database is closed.
    private struct ReaderPool {
        var idle: [SQLiteConnection] = []
        var closed = false
        var active = 0
    }

    /// Creates the database file at `path` when missing, readable and writable by its owner alone (0600 whatever
    /// the umask): SQLite gives its WAL and shared-memory files the database file's mode. Anything else (the file
    /// exists, the directory is missing) is left for SQLite's own open to report.
    private static func createPrivately(_ path: String) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return }
        #if canImport(Glibc)
            _ = Glibc.close(descriptor)
        #elseif canImport(Darwin)
            _ = Darwin.close(descriptor)
        #endif
    }

    /// How many reads run on the pool's connections now.
    var activeReads: Int { readers.withLock { $0.active } }

    /// The most idle read connections kept open; more run while many reads are in flight, then close.
    static let idleReaderLimit = 16

    /// Opens the database at `path` (WAL); `":memory:"` opens a private temporary one, removed when it closes.
    ///
    /// - parameter statementBudget: how long one statement may run before it is stopped; nil for no limit.
    init(path: String, statementBudget: Duration? = nil) throws(SQLiteError) {
        self.statementBudget = statementBudget
        if path == ":memory:" {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "nowflow-memory-" + UUID().uuidString, isDirectory: true)
            do {
                try FileManager.default.createDirectory(
                    at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                // SQLITE_CANTOPEN, as SQLite would report a database it cannot create.
                throw SQLiteError(code: .cantOpen, message: "cannot create \(directory.path): \(error)", sql: "")
            }
            temporaryDirectory = directory
            self.path = directory.appendingPathComponent("memory.db").path
        } else {
            temporaryDirectory = nil
            self.path = path
        }
        Self.createPrivately(self.path)
        do {
            writer = Mutex(
                try SQLiteConnection(
                    path: self.path, statementBudget: statementBudget, synced: temporaryDirectory == nil))
        } catch {
            if let temporaryDirectory { try? FileManager.default.removeItem(at: temporaryDirectory) }
            throw error
        }
    }

    deinit {
        close()
    }

    /// Runs `body` in one read transaction (one snapshot of the database), in parallel with other reads.
    func read<R: Sendable>(_ body: (SQLiteConnection) throws -> R) throws -> R {
        let taken = readers.withLock { pool -> (closed: Bool, idle: SQLiteConnection?) in
            guard !pool.closed else { return (true, nil) }
            pool.active += 1
            return (false, pool.idle.popLast())
        }
        // Once closed, the writer (closed too) reports it, naming the statement, as every SQLite error does.
        if taken.closed { return try writer.withLock { connection in try body(connection) } }
        let connection: SQLiteConnection
        do {
            connection =
                try taken.idle ?? SQLiteConnection(path: path, statementBudget: statementBudget, readOnly: true)
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

    /// Closes the connections (a read in progress closes its own when it ends) and removes a temporary database;
    /// later use fails with an error. Calling it again does nothing more.
    func close() {
        let idle = readers.withLock { pool in
            pool.closed = true
            defer { pool.idle = [] }
            return pool.idle
        }
        for connection in idle { connection.close() }
        writer.withLock { $0.close() }
        if let temporaryDirectory { try? FileManager.default.removeItem(at: temporaryDirectory) }
    }
}
