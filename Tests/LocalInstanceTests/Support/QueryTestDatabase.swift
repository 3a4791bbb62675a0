import NowData

import CSQLite

@testable import LocalInstance

/// An in-memory SQLite database with the tables of ``QueryTestSchema``, laid out as the local instance stores
/// them (a column per field, INTEGER for integers and booleans, REAL for decimals, TEXT otherwise).
final class QueryTestDatabase {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private var handle: OpaquePointer?

    init() throws {
        guard sqlite3_open(":memory:", &handle) == SQLITE_OK else {
            sqlite3_close(handle)
            throw Failure(description: "cannot open an in-memory database")
        }
        for (table, fields) in QueryTestSchema.tables.sorted(by: { $0.key < $1.key }) {
            let columns = fields.merging(QueryTestSchema.systemFields) { field, _ in field }
                .sorted { $0.key < $1.key }
                .map { "\($0.key.quotedIdentifier) \($0.value.testColumnType)" }
            _ = try rows("CREATE TABLE \(table.quotedIdentifier) (\(columns.joined(separator: ", ")))")
        }
    }

    deinit {
        sqlite3_close(handle)
    }

    func insert(_ table: String, _ values: KeyValuePairs<String, SQLValue>) throws {
        let columns = values.map(\.key.quotedIdentifier).joined(separator: ", ")
        let placeholders = Array(repeating: "?", count: values.count).joined(separator: ", ")
        _ = try rows("INSERT INTO \(table.quotedIdentifier) (\(columns)) VALUES (\(placeholders))", values.map(\.value))
    }

    /// The `column` of the records of `table` that `query` selects, in its order (then by rowid, as the
    /// handler does).
    func select(_ column: String, from table: String, _ query: TranslatedQuery) throws -> [String] {
        var sql = "SELECT \(column.quotedIdentifier) FROM \(table.quotedIdentifier)"
        if !query.whereClause.isEmpty { sql += " WHERE " + query.whereClause }
        sql += " ORDER BY " + (query.orderBy.isEmpty ? "rowid" : query.orderBy + ", rowid")
        return try rows(sql, query.parameters).map { $0[0] }
    }

    /// Runs `sql` and returns every row's columns as text (NULL as "").
    func rows(_ sql: String, _ parameters: [SQLValue] = []) throws -> [[String]] {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else {
            throw Failure(description: "\(String(cString: sqlite3_errmsg(handle))) in \(sql)")
        }
        defer { sqlite3_finalize(statement) }
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        for (offset, parameter) in parameters.enumerated() {
            let index = Int32(offset + 1)
            switch parameter {
            case .text(let text): sqlite3_bind_text(statement, index, text, -1, transient)
            case .integer(let number): sqlite3_bind_int64(statement, index, number)
            case .real(let number): sqlite3_bind_double(statement, index, number)
            case .null: sqlite3_bind_null(statement, index)
            }
        }
        var result: [[String]] = []
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { return result }
            guard code == SQLITE_ROW else {
                throw Failure(description: "\(String(cString: sqlite3_errmsg(handle))) in \(sql)")
            }
            result.append(
                (0..<sqlite3_column_count(statement)).map { column in
                    sqlite3_column_text(statement, column).map { String(cString: $0) } ?? ""
                })
        }
    }
}

extension FieldType {
    fileprivate var testColumnType: String {
        switch self {
        case .integer, .boolean: "INTEGER"
        case .decimal: "REAL"
        default: "TEXT"
        }
    }
}
