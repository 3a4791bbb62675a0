import Foundation
import NowData

/// Lays out records as an aligned table that fits a width: a record per row, the chosen fields as columns, long
/// values cut with `…` (none at the width ``unlimited``, for output that is not a terminal).
///
/// Without chosen fields, the columns are the usual identifying fields first (``leadingFields(naming:)``), then the
/// others that still fit, leaving out fields that are empty in every record; when even the identifying fields do not
/// fit at a readable width, the sys_id is left out first. A table cuts its other columns before the identifying field
/// (the first of the fields that name its records, ``RecordName``: the table's display field when known, else
/// `number`, `name` or `user_name`), and the sys_id last.
///
/// ```
/// number      short_description          state  sys_id
/// ----------  -------------------------  -----  --------------------------------
/// INC0010001  Email server is down       1      5c1d0e9b2fd1a3b8ac65c4f1cba2e5f7
/// ```
struct RecordTable {
    /// The fields shown first when the step chose none, for records of a table whose display field is not known.
    static let leadingFields = leadingFields(naming: RecordName.fields)
    /// The narrowest a shrunk column becomes.
    static let minimumWidth = 6
    /// The widest a column is at first when the fields are not chosen (wider ones are cut).
    static let defaultMaximumWidth = 40
    static let separator = "  "
    /// The width down to which the other columns are cut before a table without chosen fields gives up its sys_id.
    static let readableWidth = 16
    /// The width of a table whose values are never cut: every column as wide as its widest value.
    static let unlimited = Int.max

    /// The records' fields, as shown (see ``cell(_:)``).
    let rows: [[String: String]]
    /// The chosen fields; empty to choose the default ones.
    let fields: [String]
    let width: Int
    /// The fields that name the records (``RecordName/fields(of:in:)``).
    let naming: [String]

    /// A table of rows of cells (``cells(of:shown:)``), whose records `naming` names.
    init(rows: [[String: String]], fields: [String], width: Int, naming: [String] = RecordName.fields) {
        self.rows = rows
        self.fields = fields
        self.width = max(width, 20)
        self.naming = naming
    }

    /// The fields shown first when the step chose none, for records named by `naming`: those, then the short
    /// description, the state and the sys_id.
    static func leadingFields(naming: [String]) -> [String] {
        naming + ["short_description", "state", "sys_id"].filter { !naming.contains($0) }
    }

    /// The cells of the objects among `items`, values that are not records (attachments, an aggregate's groups,
    /// extracted values).
    static func cells(ofObjects items: [JSONValue]) -> [[String: String]] {
        items.compactMap { $0.object?.dictionary.mapValues(cell) }
    }

    /// A record's fields as shown, each member passed through `shown` first (its secrets masked, its dates in the
    /// display's zone): one member at a time, the record itself left as it is.
    static func cells(of record: NowRecord, shown: (JSONValue) -> JSONValue) -> [String: String] {
        var cells: [String: String] = [:]
        cells.reserveCapacity(record.json.count)
        for (name, member) in record.json {
            cells[name] = cell(shown(member))
        }
        return cells
    }

    /// The table's lines, and the fields left out because they did not fit.
    func render() -> (lines: [String], hidden: [String]) {
        var columns = candidateColumns()
        var widths = columns.map(naturalWidth)
        if fields.isEmpty, width != Self.unlimited { widths = widths.map { min($0, Self.defaultMaximumWidth) } }
        var hidden: [String] = []
        if fields.isEmpty {
            // The leading fields always come first; the others join while they fit whole.
            let leading = columns.filter(Self.leadingFields(naming: naming).contains).count
            var used = widths.prefix(leading).reduce(0, +) + Self.separator.count * max(leading - 1, 0)
            var kept = Array(0..<leading)
            for index in leading..<columns.count {
                let extra = widths[index] + (kept.isEmpty ? 0 : Self.separator.count)
                if used + extra <= width {
                    kept.append(index)
                    used += extra
                } else {
                    hidden.append(columns[index])
                }
            }
            columns = kept.map { columns[$0] }
            widths = kept.map { widths[$0] }
        }
        let readable = zip(columns, widths).map { column, width in column == "sys_id" ? width : min(width, Self.readableWidth) }
        if fields.isEmpty, !fits(readable), let index = columns.firstIndex(of: "sys_id") {
            // Short of space, the sys_id goes first: a cut one cannot be used, and a whole one would cut the others
            // below what can be read.
            hidden.insert(columns.remove(at: index), at: 0)
            widths.remove(at: index)
        }
        while !columns.isEmpty, !shrink(&widths, columns) {
            hidden.insert(columns.removeLast(), at: 0)
            widths.removeLast()
        }
        var lines = [line(columns, widths), line(widths.map { String(repeating: "-", count: $0) }, widths)]
        for row in rows {
            lines.append(line(columns.map { row[$0] ?? "" }, widths))
        }
        return (lines, hidden)
    }

    /// The chosen fields, or the leading fields the records have, then their other non-empty fields (sys_ fields
    /// last).
    private func candidateColumns() -> [String] {
        guard fields.isEmpty else { return fields }
        return Self.columns(of: Set(rows.flatMap { row in row.filter { !$0.value.isEmpty }.keys }), naming: naming)
    }

    /// The leading fields (``leadingFields(naming:)``) that the rows have.
    static func identifyingColumns(of rows: [[String: String]], naming: [String] = RecordName.fields) -> [String] {
        leadingFields(naming: naming).filter { field in
            rows.contains { !($0[field] ?? "").isEmpty }
        }
    }

    /// The fields in the order they are shown when the step chose none: the leading fields, then the others in
    /// alphabetical order with the sys_ fields last.
    static func columns(of present: Set<String>, naming: [String] = RecordName.fields) -> [String] {
        let leading = leadingFields(naming: naming).filter(present.contains)
        let others = present.subtracting(leading).sorted { a, b in
            (a.hasPrefix("sys_") ? 1 : 0, a) < (b.hasPrefix("sys_") ? 1 : 0, b)
        }
        return leading + others
    }

    private func naturalWidth(_ column: String) -> Int {
        rows.reduce(column.count) { max($0, ($1[column] ?? "").count) }
    }

    /// Whether columns of these widths fit the width.
    private func fits(_ widths: [Int]) -> Bool {
        widths.reduce(0, +) + Self.separator.count * max(widths.count - 1, 0) <= width
    }

    /// Narrows the widest columns until the table fits: the others first, then the identifying field (the first
    /// column of ``naming``), `sys_id` last (a cut sys_id cannot be used); false when the table cannot fit even at
    /// the minimum width.
    private func shrink(_ widths: inout [Int], _ columns: [String]) -> Bool {
        let available = width - Self.separator.count * max(widths.count - 1, 0)
        var total = widths.reduce(0, +)
        let identifying = columns.first(where: naming.contains)
        while total > available {
            let shrinkable = widths.indices.filter { widths[$0] > Self.minimumWidth }
            let others = shrinkable.filter { columns[$0] != "sys_id" && columns[$0] != identifying }
            let named = shrinkable.filter { columns[$0] != "sys_id" }
            let candidates = !others.isEmpty ? others : !named.isEmpty ? named : shrinkable
            guard let widest = candidates.max(by: { widths[$0] < widths[$1] }) else {
                return false
            }
            widths[widest] -= 1
            total -= 1
        }
        return true
    }

    private func line(_ texts: [String], _ widths: [Int]) -> String {
        zip(texts, widths).map { text, width in
            let cut = Self.cut(text, to: width)
            return cut + String(repeating: " ", count: width - cut.count)
        }.joined(separator: Self.separator).replacingOccurrences(of: #"\s+$"#, with: "", options: .regularExpression)
    }

    /// The text, cut to `width` characters with `…` as the last one when it is longer.
    static func cut(_ text: String, to width: Int) -> String {
        text.count > width ? String(text.prefix(width - 1)) + "…" : text
    }

    /// A field as shown: its ``text(_:)``, line breaks and tabs as spaces.
    static func cell(_ value: JSONValue) -> String {
        text(value).replacingOccurrences(of: #"[\r\n\t]+"#, with: " ", options: .regularExpression)
    }

    /// A field's text: a reference by its display value (or else its sys_id), an array joined by commas.
    static func text(_ value: JSONValue) -> String {
        switch value {
        case .object:
            NowRecord.Field(member: value).map { $0.displayValue ?? $0.value } ?? value.text
        case .array(let items):
            items.map(text).joined(separator: ", ")
        default:
            value.text
        }
    }
}
