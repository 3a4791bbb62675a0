import Foundation
import NowData

/// The field-level history of records (``AuditLog``) as the form and "What changed" show it: when, which field, the
/// value before and after (a choice by its label, a reference by its record's display value), and by whom; a
/// password field as changed, without values.
extension WebInterface {
    /// The history of one record, or of every record changed since a time, newest first; nil when it cannot be read.
    func auditEntries(of sysID: String? = nil, since: String? = nil) -> [AuditLog.Entry]? {
        try? instance.database.read { db in
            if let sysID { return try AuditLog.entries(of: sysID, db) }
            return try AuditLog.entries(since: since ?? "", db)
        }
    }

    /// A table of `entries`; with `records`, a column naming each entry's table and record.
    func historyTable(_ entries: [AuditLog.Entry], records: Bool, _ values: WebValues, _ user: WebUser) -> String {
        guard !entries.isEmpty else { return "<p class=\"muted\">No changes recorded</p>\n" }
        var names: [String: String] = [:]
        func displayValue(_ table: String, _ sysID: String) -> String {
            let key = table + "/" + sysID
            if let known = names[key] { return known }
            var name = sysID
            if let definition = instance.dictionary.table(table),
                case .success(let record) = Self.result(
                    api(
                        "GET", "/api/now/table/\(table)/\(sysID)",
                        [("sysparm_fields", definition.displayField), ("sysparm_display_value", "true")], as: user)),
                let shown = record[definition.displayField]?.string, !shown.isEmpty
            {
                name = shown
            }
            names[key] = name
            return name
        }
        func shown(_ value: String, _ field: FieldDefinition?) -> String {
            guard let field, !value.isEmpty else { return HTML.escape(value) }
            if let choice = field.choices.first(where: { $0.value == value }) { return HTML.escape(choice.label) }
            if case .reference(let target) = field.type {
                return "<a href=\"\(HTML.href("/\(target).do", [("sys_id", value)]))\">"
                    + HTML.escape(displayValue(target, value)) + "</a>"
            }
            if field.type == .dateTime { return values.time(value) }
            return HTML.escape(value)
        }
        var html = "<div class=\"scroll\"><table><thead><tr><th scope=\"col\">When</th>"
        if records { html += "<th scope=\"col\">Table</th><th scope=\"col\">Record</th>" }
        html += "<th scope=\"col\">Field</th><th scope=\"col\">Was</th><th scope=\"col\">Now</th><th scope=\"col\">By</th>"
        html += "</tr></thead><tbody>\n"
        for entry in entries {
            let table = instance.dictionary.table(entry.table)
            let field = table?.field(entry.field)
            html += "<tr><td>\(values.time(entry.time))</td>"
            if records {
                let record = displayValue(entry.table, entry.sysID)
                html += "<td>\(HTML.escape(table?.label ?? entry.table))</td>"
                html += "<td><a href=\"\(HTML.href("/\(entry.table).do", [("sys_id", entry.sysID)]))\">"
                html += "\(HTML.escape(record))</a></td>"
            }
            html += "<td>\(HTML.escape(field?.label ?? entry.field))</td>"
            if let old = entry.oldValue, let new = entry.newValue {
                html += "<td>\(shown(old, field))</td><td>\(shown(new, field))</td>"
            } else {
                html += "<td colspan=\"2\" class=\"muted\">changed (a password: not shown)</td>"
            }
            html += "<td>\(HTML.escape(entry.user))</td></tr>\n"
        }
        return html + "</tbody></table></div>\n"
    }
}
