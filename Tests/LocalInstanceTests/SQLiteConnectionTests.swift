import Foundation
import TestSupport
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

/// `:memory:` is a private temporary database file with WAL, removed when the database closes or is released.
@Suite struct TemporaryDatabaseTests {
    @Test func memoryIsAPrivateWALFileRemovedAtClose() throws {
        let first = try SQLiteDatabase(path: ":memory:")
        var second: SQLiteDatabase? = try SQLiteDatabase(path: ":memory:")
        let directory = try #require(first.temporaryDirectory)
        #expect(directory.lastPathComponent.hasPrefix("nowflow-memory-"))
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("memory.db").path))
        try first.write { try $0.execute(#"CREATE TABLE "t" ("a" TEXT)"#) }
        _ = try first.write { try $0.run(#"INSERT INTO "t" VALUES (?)"#, [.text("x")]) }
        #expect(try first.read { try $0.query("PRAGMA journal_mode") } == [[.text("wal")]])
        #expect(try first.read { try $0.query(#"SELECT "a" FROM "t""#) } == [[.text("x")]])
        #expect(throws: SQLiteError.self) { try second?.read { try $0.query(#"SELECT "a" FROM "t""#) } }
        first.close()
        #expect(!FileManager.default.fileExists(atPath: directory.path))
        let other = try #require(second?.temporaryDirectory)
        #expect(FileManager.default.fileExists(atPath: other.path))
        second = nil
        #expect(!FileManager.default.fileExists(atPath: other.path))
    }
}

/// The local instance's `LIKE ... ESCAPE` (``LikePattern``) answers as SQLite's own does, in linear time for the
/// patterns the query translator writes.
@Suite struct LikeTests {
    /// Whether `text LIKE pattern ESCAPE '\'` on `db`.
    static func like(_ db: SQLiteConnection, _ text: String, _ pattern: String) throws -> SQLValue {
        try db.query(#"SELECT ? LIKE ? ESCAPE '\'"#, [.text(text), .text(pattern)]).first?.first ?? .null
    }

    @Test func answersAsSQLitesOwnLikeDoes() throws {
        let db = try SQLiteConnection(path: ":memory:")
        let builtIn = try QueryTestDatabase()
        let texts = [
            "", "a", "abc", "ABC", "aBc", "xabcx", "é", "Éa", "aé", "ß", "50%", "50_", #"a\b"#, "aaab", "abab",
            "ababab", "Mississippi", "%", "_", "ab", "ba", "aab", String(repeating: "@[`{AZaz", count: 3),
            "Mixed Case ÀÉ Text WITH ünïcode and [brackets]",
        ]
        let patterns = [
            "", "%", "%%", "_", "__", "a", "A", "b", "%a", "a%", "%a%", "%B%", "a_c", "%_%", "_é", "%é%", "É", "é_",
            #"\%"#, #"50\%"#, #"50\_"#, #"%\\%"#, #"a\"#, #"\a\B\C"#, "%ab%ab%", "%iss%ipp%", "m%i", "M%_I", "%aab",
            "a%b", "a%%b", "%a%b%", "_%_", "%_b", "ab%", "%ba", "%ß%", "%A_B%", "%[`{az@%", "%a@%", "%z[%", "%Z{%",
            "%ünï%", "%ÜNÏ%", "%àé%", "%BRACKETS]", "%text with%", "mixed%", "%@[`{AZAZ@[%",
        ]
        // And a thousand pairs from a small alphabet, drawn from a fixed seed.
        var generator = SplitMix(seed: 11)
        let alphabet = ["a", "A", "b", "é", "%", "_"]
        func draw(_ letters: [String], _ most: Int) -> String {
            (0..<Int.random(in: 0...most, using: &generator)).map { _ in letters.randomElement(using: &generator) ?? "" }
                .joined()
        }
        let drawn = (0..<1_000).map { _ in (draw(Array(alphabet.prefix(4)), 8), draw(alphabet + [#"\"#], 5)) }
        var differences: [String] = []
        for (text, pattern) in texts.flatMap({ text in patterns.map { (text, $0) } }) + drawn {
            let expected = try builtIn.rows(#"SELECT ? LIKE ? ESCAPE '\'"#, [.text(text), .text(pattern)])
            let answer = try Self.like(db, text, pattern)
            if [[answer == .integer(1) ? "1" : "0"]] != expected { differences.append("'\(text)' LIKE '\(pattern)'") }
        }
        #expect(differences == [])
        // NULL on either side is NULL; a number is compared as its text; the escape is one character.
        #expect(try db.query(#"SELECT NULL LIKE 'a' ESCAPE '\', 'a' LIKE NULL ESCAPE '\'"#) == [[.null, .null]])
        #expect(try db.query(#"SELECT 123 LIKE '1%3' ESCAPE '\', 1.5 LIKE '%.5' ESCAPE '\'"#) == [[.integer(1), .integer(1)]])
        #expect(throws: SQLiteError(code: 1, message: "ESCAPE expression must be a single character", sql: #"SELECT 'a' LIKE 'a' ESCAPE 'xy'"#)) {
            try db.query(#"SELECT 'a' LIKE 'a' ESCAPE 'xy'"#)
        }
    }

    /// The whole value is compared, the bytes after a NUL included (SQLite's own stops at the NUL).
    @Test func matchesTheWholeValuePastANUL() throws {
        let db = try SQLiteConnection(path: ":memory:")
        #expect(try Self.like(db, "before\u{0}after", "%AFTER") == .integer(1))
        #expect(try Self.like(db, "before\u{0}after", "before") == .integer(0))
    }

    /// A 10,000-byte pattern (the longest a query takes) against a 1 MB value that almost matches it everywhere:
    /// SQLite's own LIKE backtracks for minutes; this one answers inside a 30-second budget (ten times what a loaded
    /// machine takes for the linear match, a fraction of the backtracking's).
    @Test func aLongPatternOverAMegabyteAnswersInsideTheBudget() throws {
        let db = try SQLiteConnection(path: ":memory:", statementBudget: .seconds(30))
        let value = String(repeating: "a", count: 1 << 20)
        let almost = "%" + String(repeating: "A", count: 9_999) + "b%"
        #expect(try Self.like(db, value, almost) == .integer(0))
        #expect(try Self.like(db, value + "b", almost) == .integer(1))
        #expect(try Self.like(db, value + "b", "%" + String(repeating: "A", count: 9_999) + "B") == .integer(1))
        #expect(try Self.like(db, value, String(repeating: "a", count: 9_999) + "%") == .integer(1))
    }

    /// A pattern with `_` backtracks, and stops when the statement's budget runs out.
    @Test func aBacktrackingMatchStopsAtTheBudget() throws {
        let db = try SQLiteConnection(path: ":memory:", statementBudget: .milliseconds(100))
        let value = String(repeating: "a", count: 1 << 20)
        let pattern = "%" + String(repeating: "a_", count: 2_000) + "b"
        let error = #expect(throws: SQLiteError.self) { try Self.like(db, value, pattern) }
        #expect(error?.isInterrupted == true)
        #expect(try Self.like(db, "xaybz", "%a_b_") == .integer(1))
    }
}
