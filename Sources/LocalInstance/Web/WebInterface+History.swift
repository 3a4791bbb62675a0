import Foundation
import NowData

/// The field-level history of records (`sys_audit`, kept by ``AuditLog``) as the form and "What changed" show it,
/// read through the Table API as the signed-in user (so with the same access decision): when, which field, the value
/// before and after (a choice by its label, a reference by its record's display value), and by whom; a creation's
/// fields with "created" before, a deletion as such, a password field as changed, without values.
extension WebInterface {
    /// The most audit records a history shows.
    static let historyLimit = 500

    /// One audit record as the history shows it.
    struct AuditEntry: Sendable, Hashable {
        var table: String
        var sysID: String
        var field: String
        var oldValue: String
        var newValue: String
        var user: String
        /// UTC `yyyy-MM-dd HH:mm:ss`.
        var time: String
        var checkpoint: Int
    }

    /// The history of one record, or of every record changed since a time (UTC `yyyy-MM-dd HH:mm:ss`), newest write
    /// first, the fields of one write in their order; empty when the user may read none of it.
    func auditEntries(of sysID: String? = nil, since: String? = nil, as user: WebUser) -> [AuditEntry] {
        let condition =
            if let sysID { "documentkey=" + EncodedQuery.escaped(sysID) } else {
                "sys_created_on>=" + EncodedQuery.escaped(since ?? "")
            }
        guard instance.dictionary.table(TableDictionary.sysAudit.name) != nil,
            case .success(let result) = Self.result(
                api(
                    "GET", "/api/now/table/sys_audit",
                    [
                        ("sysparm_query", condition + "^ORDERBYDESCinternal_checkpoint"),
                        ("sysparm_limit", String(Self.historyLimit)),
                        (
                            "sysparm_fields",
                            "tablename,documentkey,fieldname,oldvalue,newvalue,user,sys_created_on,record_checkpoint"
                        ),
                    ], as: user))
        else { return [] }
        return (result.array ?? []).map { record in
            func text(_ name: String) -> String { WebValues.value(record[name]) }
            return AuditEntry(
                table: text("tablename"), sysID: text("documentkey"), field: text("fieldname"),
                oldValue: text("oldvalue"), newValue: text("newvalue"), user: text("user"),
                time: text("sys_created_on"), checkpoint: Int(text("record_checkpoint")) ?? 0)
        }
    }

    /// A table of `entries`; with `records`, a column naming each entry's table and record.
    func historyTable(_ entries: [AuditEntry], records: Bool, _ values: WebValues, _ user: WebUser) -> String {
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
            html += "<tr><td>\(values.time(entry.time))</td>"
            if records {
                let record = displayValue(entry.table, entry.sysID)
                html += "<td>\(HTML.escape(table?.label ?? entry.table))</td>"
                html += "<td><a href=\"\(HTML.href("/\(entry.table).do", [("sys_id", entry.sysID)]))\">"
                html += "\(HTML.escape(record))</a></td>"
            }
            let created = entry.checkpoint == 0 && entry.oldValue.isEmpty
            if entry.field == AuditLog.deleted, entry.checkpoint == -1 {
                html += "<td colspan=\"3\">Record deleted</td>"
            } else if let field = table?.field(entry.field), field.isPassword {
                html += "<td>\(HTML.escape(field.label))</td>"
                html += "<td colspan=\"2\" class=\"muted\">\(created ? "set" : "changed") (a password: not shown)</td>"
            } else {
                let field = table?.field(entry.field)
                html += "<td>\(HTML.escape(field?.label ?? entry.field))</td>"
                html += created ? "<td class=\"muted\">created</td>" : "<td>\(shown(entry.oldValue, field))</td>"
                html += "<td>\(shown(entry.newValue, field))</td>"
            }
            html += "<td>\(HTML.escape(entry.user))</td></tr>\n"
        }
        return html + "</tbody></table></div>\n"
    }
}
