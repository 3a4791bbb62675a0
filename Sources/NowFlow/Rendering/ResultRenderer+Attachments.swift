import NowData

/// How the REPL and `nowflow run` show the results of the attachment steps and `aggregate`: as records, so that
/// they are drawn as tables.
extension ResultRenderer {
    /// The columns of an attachment's metadata, in order.
    static let attachmentColumns = [
        "sys_id", "file_name", "content_type", "size_bytes", "hash", "table_name", "table_sys_id", "sys_created_on",
    ]
    /// The columns of a list of attachments.
    static let attachmentListColumns = ["sys_id", "file_name", "content_type", "size_bytes", "sys_created_on"]

    /// The value to render for a step of `kind` and its columns: an attachment as one record (a download's path
    /// with it), a list of attachments as a table, an aggregate's groups as a table of the group's values and
    /// statistics (`count`, `sum.field`, ...), its stats as one record.
    static func tabular(_ value: JSONValue, of kind: StepKind) -> (JSONValue, [String]) {
        switch kind {
        case .attach, .download:
            guard case .object(var attachment)? = value["attachment"] else { return (value, []) }
            var columns = attachmentColumns.filter { attachment[$0] != nil }
            if let path = value["path"] {
                attachment["path"] = path
                columns.append("path")
            }
            return (.object(["record": .object(attachment)]), columns)
        case .attachments:
            return (.object(["records": value["attachments"] ?? .array([])]), attachmentListColumns)
        case .aggregate(let step):
            guard case .array(let groups)? = value["groups"] else {
                let stats = flattened(value["stats"] ?? .object([:]))
                return (.object(["record": .object(stats)]), stats.keys)
            }
            var columns = step.groupBy
            let rows: [JSONValue] = groups.map { group in
                var row = group["group"]?.object ?? JSONObject()
                for (name, cell) in flattened(group["stats"] ?? .object([:])) {
                    row[name] = cell
                    if !columns.contains(name) { columns.append(name) }
                }
                return .object(row)
            }
            return (.object(["records": .array(rows)]), columns)
        default:
            return (value, [])
        }
    }

    /// `{count: 3, sum: {x: "7"}}` as `{count: "3", sum.x: "7"}`.
    private static func flattened(_ stats: JSONValue) -> JSONObject {
        var cells = JSONObject()
        for (key, part) in stats.object ?? JSONObject() {
            if case .object(let values) = part {
                for (field, cell) in values { cells["\(key).\(field)"] = .string(cell.text) }
            } else {
                cells[key] = .string(part.text)
            }
        }
        return cells
    }
}
