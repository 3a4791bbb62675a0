import CSQLite
import Foundation

/// A bare SQLite connection: the reference the instance is measured against, and the fast way to seed it.
final class RawDatabase {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private var handle: OpaquePointer?
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    init(path: String) throws {
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK else {
            throw Failure(description: "cannot open \(path)")
        }
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    func execute(_ sql: String) throws {
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else { throw failure(sql) }
    }

    /// A prepared statement; finalized by ``Statement/finalize()``.
    func prepare(_ sql: String) throws -> Statement {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw failure(sql)
        }
        return Statement(handle: statement)
    }

    private func failure(_ sql: String) -> Failure {
        Failure(description: "\(String(cString: sqlite3_errmsg(handle))) in \(sql)")
    }

    /// One prepared statement.
    struct Statement {
        let handle: OpaquePointer

        func bind(_ values: [Any?]) {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
            for (index, value) in values.enumerated() {
                let position = Int32(index + 1)
                switch value {
                case let integer as Int: sqlite3_bind_int64(handle, position, Int64(integer))
                case let text as String: sqlite3_bind_text(handle, position, text, -1, RawDatabase.transient)
                default: sqlite3_bind_null(handle, position)
                }
            }
        }

        /// Steps through every row, reading each column as text (as a JSON writer would); returns the bytes read.
        @discardableResult
        func readAll() throws -> Int {
            var bytes = 0
            let columns = sqlite3_column_count(handle)
            while true {
                let code = sqlite3_step(handle)
                if code == SQLITE_DONE { break }
                guard code == SQLITE_ROW else { throw Failure(description: "step failed with \(code)") }
                for column in 0..<columns {
                    if let text = sqlite3_column_text(handle, column) {
                        bytes += String(cString: text).utf8.count
                    }
                }
            }
            sqlite3_reset(handle)
            return bytes
        }

        /// The text of column `index` in every row.
        func column(_ index: Int32) -> [String] {
            var values: [String] = []
            while sqlite3_step(handle) == SQLITE_ROW {
                values.append(sqlite3_column_text(handle, index).map { String(cString: $0) } ?? "")
            }
            sqlite3_reset(handle)
            return values
        }

        func finalize() {
            sqlite3_finalize(handle)
        }
    }
}
