import Foundation
import Testing

@testable import LocalInstance

@Suite struct SQLiteConnectionTests {
    @Test func boundParametersRoundTripAndErrorsNameTheSQL() throws {
        let db = try SQLiteConnection(path: ":memory:")
        try db.execute(#"CREATE TABLE "t" ("a" TEXT, "b" INTEGER, "c" REAL)"#)
        let tricky = "Robert'); DROP TABLE \"t\";--"
        try db.run(#"INSERT INTO "t" VALUES (?, ?, ?)"#, [.text(tricky), .integer(42), .real(1.5)])
        try db.run(#"INSERT INTO "t" VALUES (?, ?, ?)"#, [.null, .null, .null])
        #expect(
            try db.query(#"SELECT * FROM "t" ORDER BY rowid"#) == [
                [.text(tricky), .integer(42), .real(1.5)], [.null, .null, .null],
            ])
        #expect(throws: SQLiteError(code: 1, message: "no such table: missing", sql: #"SELECT * FROM "missing""#)) {
            try db.query(#"SELECT * FROM "missing""#)
        }
        let error = SQLiteError(code: 1, message: "no such table: missing", sql: #"SELECT * FROM "missing""#)
        #expect(
            error.description == #"SQLite error 1: no such table: missing - while executing `SELECT * FROM "missing"`"#)
    }

    /// Text is bound by its byte length, so a NUL does not end it, and an empty string is text, not NULL.
    @Test func textWithANULIsBoundWhole() throws {
        let db = try SQLiteConnection(path: ":memory:")
        try db.execute(#"CREATE TABLE "t" ("a" TEXT)"#)
        let text = "before\u{0}after é"
        try db.run(#"INSERT INTO "t" VALUES (?), (?)"#, [.text(text), .text("")])
        #expect(try db.query(#"SELECT "a", length(CAST("a" AS BLOB)) FROM "t" ORDER BY rowid"#) == [
            [.text(text), .integer(Int64(text.utf8.count))], [.text(""), .integer(0)],
        ])
        #expect(try db.query(#"SELECT count(*) FROM "t" WHERE "a" = ?"#, [.text(text)]) == [[.integer(1)]])
        #expect(try db.query(#"SELECT count(*) FROM "t" WHERE "a" = ?"#, [.text("before")]) == [[.integer(0)]])
    }

    @Test func transactionRollsBackOnError() throws {
        let db = try SQLiteConnection(path: ":memory:")
        try db.execute(#"CREATE TABLE "t" ("a" TEXT UNIQUE)"#)
        #expect(throws: SQLiteError.self) {
            try db.transaction {
                try db.run(#"INSERT INTO "t" VALUES (?)"#, [.text("x")])
                try db.run(#"INSERT INTO "t" VALUES (?)"#, [.text("x")])
            }
        }
        #expect(try db.query(#"SELECT count(*) FROM "t""#) == [[.integer(0)]])
    }

    @Test func fileDatabasesUseWAL() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("wal-\(UUID().uuidString).db").path
        defer {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        let db = try SQLiteConnection(path: path)
        #expect(try db.query("PRAGMA journal_mode") == [[.text("wal")]])
        db.close()
        #expect(throws: SQLiteError.self) { try db.query("SELECT 1") }
    }
}
