/// Rows as CSV text (RFC 4180): a header line, then a line per row, each ended by CRLF; a value holding a comma, a
/// quote, a line break or a space at either end is quoted, its quotes doubled.
enum CSVText {
    /// The text of `rows` under the header `columns` (a missing value is empty).
    static func text(columns: [String], rows: [[String: String]]) -> String {
        ([columns] + rows.map { row in columns.map { row[$0] ?? "" } })
            .map { $0.map(field).joined(separator: ",") + "\r\n" }
            .joined()
    }

    /// One value, quoted when it must be.
    static func field(_ value: String) -> String {
        let quoted = value.contains { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }
            || value.first?.isWhitespace == true || value.last?.isWhitespace == true
        return quoted ? "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : value
    }
}
