import Foundation
import NowData

/// Shows values for a person: step results, records and `:show` values, as tables, JSON or YAML, with dates in
/// the chosen zone.
///
/// In the table format, records (a query's `records`) are an aligned table and one record (a `get`'s `record`) a
/// column of `field  value` lines, by their type (``ExpressionValue/records(_:)``, ``ExpressionValue/record(_:)``)
/// or as a step's result holds them (`records`, `record`); another list of objects is a table too, another object
/// YAML, and a plain value its text.
struct ResultRenderer {
    var format: OutputFormat
    var dates: JobDates
    /// The terminal's width in characters (``RecordTable/unlimited``: values whole).
    var width: Int

    /// The value as text, without a final line break; `fields` chooses the columns of records.
    func render(_ value: JSONValue, fields: [String] = []) -> String {
        let shown = dates.shown(value)
        switch format {
        case .json: return shown.sortingKeys().jsonText(pretty: true)
        case .yaml: return YAMLEmitter.text(of: shown).trimmingCharacters(in: .newlines)
        case .table: return table(shown, fields: fields)
        }
    }

    /// An expression's value (`:show`, an extract's result): records and a record by their type, any other value
    /// as its JSON is shown.
    func render(_ value: ExpressionValue, fields: [String] = []) -> String {
        switch value {
        case .records(let records): render(records, single: false, fields: fields) { value.json }
        case .record(let record): render([record], single: true, fields: fields) { value.json }
        case .json, .result, .date, .duration: render(value.json, fields: fields)
        }
    }

    /// A query's records (`single` false) or a get's record as text: in the table format laid out from the records
    /// themselves, each member's dates shown in the zone as its cell is made; in the other formats, `json` (the
    /// step's result as expressions see it) written out.
    func render(_ records: [NowRecord], single: Bool, fields: [String], json: () -> JSONValue) -> String {
        guard format == .table, !single || records.count == 1 else { return render(json(), fields: fields) }
        let rows = records.map { RecordTable.cells(of: $0, shown: dates.shown) }
        if single, let cells = rows.first { return recordLines(cells: cells, fields: fields) }
        return recordList(rows, fields: fields)
    }

    private func table(_ value: JSONValue, fields: [String]) -> String {
        switch value {
        case .object(let result):
            if case .array(let items) = result["records"], let records = Self.records(items) {
                return recordList(records, fields: fields)
            }
            if case .object(let record) = result["record"] {
                return recordLines(record, fields: fields)
            }
            return YAMLEmitter.text(of: value).trimmingCharacters(in: .newlines)
        case .array(let items):
            if let records = Self.records(items), !records.isEmpty { return recordList(records, fields: fields) }
            return YAMLEmitter.text(of: value).trimmingCharacters(in: .newlines)
        case .null:
            return "null"
        default:
            return value.text
        }
    }

    /// An aligned table with a line saying how many records there are and which fields did not fit.
    private func recordList(_ records: [JSONObject], fields: [String]) -> String {
        recordList(records.map { $0.dictionary.mapValues(RecordTable.cell) }, fields: fields)
    }

    /// An aligned table of rows of cells (``RecordTable/cells(of:shown:)``), with its footer.
    private func recordList(_ rows: [[String: String]], fields: [String]) -> String {
        guard !rows.isEmpty else { return "no records" }
        let (lines, hidden) = RecordTable(rows: rows, fields: fields, width: width).render()
        var footer = "\(rows.count) record\(rows.count == 1 ? "" : "s")"
        if !hidden.isEmpty {
            footer += "; \(hidden.count) more field\(hidden.count == 1 ? "" : "s") not shown (choose with fields=, or :format json)"
        }
        return (lines + [footer]).joined(separator: "\n")
    }

    /// One record as `field  value` lines: the chosen fields, or every non-empty field, identifying ones first.
    func recordLines(_ record: JSONObject, fields: [String]) -> String {
        recordLines(cells: record.dictionary.mapValues(RecordTable.cell), fields: fields)
    }

    /// One record's cells (``RecordTable/cells(of:shown:)``) as `field  value` lines.
    func recordLines(cells: [String: String], fields: [String]) -> String {
        let names = fields.isEmpty ? RecordTable.columns(of: Set(cells.filter { !$0.value.isEmpty }.keys)) : fields
        guard !names.isEmpty else { return "(an empty record)" }
        let nameWidth = min(names.map(\.count).max() ?? 0, width == RecordTable.unlimited ? width : 30)
        let valueWidth = max(width - nameWidth - RecordTable.separator.count, RecordTable.minimumWidth)
        return names.map { name in
            let shownName = RecordTable.cut(name, to: nameWidth)
            let cut = RecordTable.cut(cells[name] ?? "", to: valueWidth)
            let padded = shownName + String(repeating: " ", count: nameWidth - shownName.count)
            return cut.isEmpty ? padded.trimmingCharacters(in: .whitespaces) : padded + RecordTable.separator + cut
        }.joined(separator: "\n")
    }

    /// The items as records, when every one is a record.
    private static func records(_ items: [JSONValue]) -> [JSONObject]? {
        var records: [JSONObject] = []
        for item in items {
            guard case .object(let fields) = item else { return nil }
            records.append(fields)
        }
        return records
    }
}
