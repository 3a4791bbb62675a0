import Foundation

/// The rows of a CSV text (RFC 4180: `,` between fields, `"` around a field holding one, a line break or a `"`,
/// written `""`), its first line naming the columns: each row a mapping of column to value. Blank lines are
/// skipped; a row with more fields than the header is refused. ``text`` writes a table the same way.
struct CSVTable {
    /// A CSV text that cannot be read: the line and what is wrong.
    struct ParseError: Error, Equatable {
        var line: Int
        var message: String
    }

    let columns: [String]
    let rows: [[String: String]]

    /// A table of `rows` under the header `columns`, to write as ``text``.
    init(columns: [String], rows: [[String: String]]) {
        self.columns = columns
        self.rows = rows
    }

    /// The table of a CSV text, read scalar by scalar (a `"` or `,` that a combining mark follows is one `Character`
    /// with it, yet a separator to every other reader); a CRLF reads as a line feed, inside a quoted value too.
    init(_ text: String) throws(ParseError) {
        var records: [(line: Int, fields: [String])] = []
        var fields: [String] = []
        var field = String.UnicodeScalarView()
        var quoted = false
        var line = 1
        var recordLine = 1
        var fieldStarted = false
        var scalars: [Unicode.Scalar] = []
        for scalar in text.unicodeScalars {
            if scalar == "\n", scalars.last == "\r" { scalars.removeLast() }
            scalars.append(scalar)
        }
        if scalars.last != "\n" { scalars.append("\n") }
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if quoted {
                if scalar == "\"" {
                    if index + 1 < scalars.count, scalars[index + 1] == "\"" {
                        field.append("\"")
                        index += 1
                    } else {
                        quoted = false
                    }
                } else {
                    if scalar == "\n" { line += 1 }
                    field.append(scalar)
                }
            } else {
                switch scalar {
                case "\"" where field.isEmpty && !fieldStarted:
                    quoted = true
                    fieldStarted = true
                case ",":
                    fields.append(String(field))
                    field = String.UnicodeScalarView()
                    fieldStarted = false
                case "\n":
                    fields.append(String(field))
                    if fields != [""] { records.append((recordLine, fields)) }
                    fields = []
                    field = String.UnicodeScalarView()
                    fieldStarted = false
                    line += 1
                    recordLine = line
                default:
                    field.append(scalar)
                    fieldStarted = true
                }
            }
            index += 1
        }
        if quoted { throw ParseError(line: recordLine, message: "a quoted field is not closed") }
        guard let header = records.first else { throw ParseError(line: 1, message: "no header line naming the columns") }
        let columns = header.fields.map { $0.trimmingCharacters(in: .whitespaces) }
        if let empty = columns.firstIndex(where: \.isEmpty) {
            throw ParseError(line: header.line, message: "column \(empty + 1) of the header has no name")
        }
        var rows: [[String: String]] = []
        for record in records.dropFirst() {
            guard record.fields.count <= columns.count else {
                throw ParseError(
                    line: record.line,
                    message: "\(record.fields.count) fields, but the header names \(columns.count) columns")
            }
            var row: [String: String] = [:]
            for (column, value) in zip(columns, record.fields) { row[column] = value }
            rows.append(row)
        }
        self.columns = columns
        self.rows = rows
    }

    /// The table as CSV text: the header line, then a line per row, each ended by CRLF (a missing value is empty);
    /// a value holding a comma, a quote, a line break or a space at either end is quoted, its quotes doubled.
    var text: String {
        ([columns] + rows.map { row in columns.map { row[$0] ?? "" } })
            .map { $0.map(Self.field).joined(separator: ",") + "\r\n" }
            .joined()
    }

    /// One value as a CSV field, quoted when it must be; read by bytes and scalars, as other readers do (a CRLF,
    /// or a `,` or `"` that a combining mark follows, is one `Character`).
    private static func field(_ value: String) -> String {
        let special: Set<UInt8> = [UInt8(ascii: ","), UInt8(ascii: "\""), UInt8(ascii: "\n"), UInt8(ascii: "\r")]
        let quoted = value.utf8.contains(where: special.contains)
            || value.unicodeScalars.first?.properties.isWhitespace == true
            || value.unicodeScalars.last?.properties.isWhitespace == true
        guard quoted else { return value }
        var field = String.UnicodeScalarView()
        field.append("\"")
        for scalar in value.unicodeScalars {
            field.append(scalar)
            if scalar == "\"" { field.append(scalar) }
        }
        field.append("\"")
        return String(field)
    }
}
