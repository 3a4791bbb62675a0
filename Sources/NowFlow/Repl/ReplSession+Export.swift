import Foundation
import NowData

/// `:export csv|json|yaml FILE`: the last result (`steps._`) written to a file.
extension ReplSession {
    /// Writes the last result: as JSON or YAML whole (as `:format json` and `yaml` show it), as CSV its records (a
    /// column per field: the step's `fields` in order, else the identifying fields first). Dates are in the zone
    /// `:tz` chose, read through the job's coder, as they are shown; secrets masked. Never over a file that exists.
    func export(_ argument: String) -> ReplReply {
        let words = argument.split(separator: " ", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
        guard words.count == 2, let format = words.first, ["csv", "json", "yaml"].contains(format), let path = words.last,
            !path.isEmpty
        else {
            return .rejection(":export takes csv, json or yaml and a file, as in :export csv incidents.csv", column: 0)
        }
        guard let result = scope.steps["_"] else {
            return .rejection("nothing to export: no step has a result yet (:export writes the last one, steps._)", column: 0)
        }
        guard !FileManager.default.fileExists(atPath: path) else {
            return .rejection("not exported: \(path) exists; choose another file", column: 0)
        }
        let text: String
        let what: String
        switch format {
        case "csv":
            let records = result.records
            guard !records.isEmpty else {
                return .rejection(
                    "the last result (steps._) has no records to write as CSV; :export json \(path) writes it", column: 0)
            }
            let rows = records.map { record in record.json.dictionary.mapValues { RecordTable.text(dates.shown($0)) } }
            var columns = kinds["_"]?.requestedFields ?? []
            if columns.isEmpty { columns = RecordTable.columns(of: Set(rows.flatMap(\.keys))) }
            text = CSVTable(columns: columns, rows: rows).text
            what = "\(records.count) record\(records.count == 1 ? "" : "s")"
        default:
            let renderer = ResultRenderer(
                format: format == "json" ? .json : .yaml, dates: dates, width: RecordTable.unlimited)
            text = renderer.render(result.json) + "\n"
            what = "steps._"
        }
        do {
            try masker(text).write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            return ReplReply(ReplReply.errorText("cannot write \(path): \(error.localizedDescription)", column: 0))
        }
        return ReplReply("exported \(what) to \(path) (\(format))")
    }
}
