import Foundation
import Testing

@testable import LocalInstance

/// SQLite's failures are classified by their result code, as GRDB's `ResultCode` does, never by their message.
struct SQLiteErrorTests {
    /// SQLite refuses a statement for its size with the generic `SQLITE_ERROR`, the code the Table API answers
    /// "query too large" for when the statement is the translation of a client's query.
    @Test func aStatementTooLargeIsTheGenericError() throws {
        let db = try SQLiteConnection(path: ":memory:")
        let deep = String(repeating: "(", count: 1_100) + "1" + String(repeating: ")", count: 1_100)
        let error = #expect(throws: SQLiteError.self) { try db.query("SELECT 1 WHERE 1 = " + deep) }
        #expect(error?.code == .error)
        #expect(error?.isInterrupted == false)
    }

    /// An extended code's primary code is its low byte: an interrupted statement is interrupted whatever the
    /// extension.
    @Test func extendedCodesHaveTheirPrimaryCode() {
        let read = SQLiteError(code: 266, message: "disk I/O error", sql: "")
        #expect(read.code.primary == 10)
        #expect(SQLiteError(code: .interrupt, message: "interrupted", sql: "SELECT 1").isInterrupted)
        #expect(!read.isInterrupted)
        #expect(read.description == "SQLite error 266: disk I/O error")
    }
}
