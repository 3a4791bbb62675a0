import Foundation
import NowData

/// What changed, `/changes.do?since=...`: the records created, updated or deleted since a time (UTC
/// `yyyy-MM-dd HH:mm:ss` or ISO 8601 with `T` and `Z`; the last hour by default), read from `sys_created_on` and
/// `sys_updated_on` of every table but the dictionary's and `sys_audit`, each record named by its display value; the field
/// changes since then (`sys_audit`); and the deletions, from the deletion log.
extension WebInterface {
    /// The most records listed per table.
    static let changesPerTable = 200

    func changes(_ request: NowHTTPRequest, _ user: WebUser) -> WebPage {
        let given = request.queryItems.last { $0.name == "since" }?.value ?? ""
        let values = WebValues(dictionary: instance.dictionary, timeZone: user.timeZone)
        let since: String
        if given.isEmpty {
            since = Timestamp.string(instance.now().addingTimeInterval(-3600))
        } else if let date = Self.date(given) {
            since = Timestamp.string(date)
        } else {
            return WebPage.message(
                "What changed", "Invalid since value '\(given)': give a UTC time as yyyy-MM-dd HH:mm:ss.", user: user,
                status: 400)
        }
        struct Change {
            var table: TableDefinition
            var sysID: String
            var name: String
            var time: String
            var by: String
            var modCount: String
        }
        var created: [Change] = []
        var updated: [Change] = []
        var seen: Set<String> = []
        var truncated: [String] = []
        for name in instance.dictionary.tableNames
        where !TableDictionary.metadataTableNames.contains(name) && name != TableDictionary.sysAudit.name {
            guard let table = instance.dictionary.table(name), table.field("sys_updated_on") != nil else { continue }
            let response = api(
                "GET", "/api/now/table/\(name)",
                [
                    ("sysparm_query", "sys_updated_on>=\(since)^ORDERBYDESCsys_updated_on"),
                    (
                        "sysparm_fields",
                        "sys_id,sys_class_name,\(table.displayField),sys_created_on,sys_updated_on,sys_updated_by,sys_mod_count"
                    ),
                    ("sysparm_limit", String(Self.changesPerTable)), ("sysparm_display_value", "all"),
                ], as: user)
            guard case .success(let result) = Self.result(response) else { continue }
            if let total = response.headers.value(named: "X-Total-Count").flatMap({ Int($0) }),
                total > Self.changesPerTable
            {
                truncated.append(name)
            }
            for record in result.array ?? [] {
                let sysID = WebValues.value(record["sys_id"])
                let className = WebValues.value(record["sys_class_name"])
                // A record of a hierarchy is listed once, under its own class.
                if !className.isEmpty, className != name, instance.dictionary.table(className) != nil { continue }
                guard seen.insert(sysID).inserted else { continue }
                let createdOn = WebValues.value(record["sys_created_on"])
                let change = Change(
                    table: table, sysID: sysID, name: WebValues.displayValue(record[table.displayField]),
                    time: createdOn >= since ? createdOn : WebValues.value(record["sys_updated_on"]),
                    by: WebValues.value(record["sys_updated_by"]), modCount: WebValues.value(record["sys_mod_count"]))
                if createdOn >= since { created.append(change) } else { updated.append(change) }
            }
        }
        let deleted = instance.deletions.entries(since: since)
        let fieldChanges = auditEntries(since: since, as: user)
        var body = "<h1>What changed</h1>\n"
        body += """
            <form class="query" method="get" action="/changes.do">\
            <label for="since">Since (UTC)</label>\
            <input type="text" id="since" name="since" value="\(HTML.escape(since))">\
            <button type="submit">Show</button></form>
            <p class="count" role="status">Since \(values.time(since)): \(created.count) created, \(updated.count) \
            updated (\(fieldChanges.count) field changes), \(deleted.count) deleted</p>

            """
        func section(_ title: String, _ timeLabel: String, _ changes: [Change]) -> String {
            var html = "<h2>\(title) (\(changes.count))</h2>\n"
            guard !changes.isEmpty else { return html + "<p class=\"muted\">None</p>\n" }
            html +=
                "<div class=\"scroll\"><table><thead><tr><th scope=\"col\">\(timeLabel)</th><th scope=\"col\">Table</th>"
            html +=
                "<th scope=\"col\">Record</th><th scope=\"col\">By</th><th scope=\"col\">Updates</th></tr></thead><tbody>\n"
            for change in changes.sorted(by: { $0.time > $1.time }) {
                let shown = change.name.isEmpty ? change.sysID : change.name
                html += "<tr><td>\(values.time(change.time))</td>"
                html +=
                    "<td><a href=\"\(HTML.href("/\(change.table.name)_list.do"))\">\(HTML.escape(change.table.label))</a></td>"
                html +=
                    "<td><a href=\"\(HTML.href("/\(change.table.name).do", [("sys_id", change.sysID)]))\">\(HTML.escape(shown))</a></td>"
                html +=
                    "<td>\(HTML.escape(change.by))</td><td class=\"number\">\(HTML.escape(change.modCount))</td></tr>\n"
            }
            return html + "</tbody></table></div>\n"
        }
        body += section("Created", "Created", created)
        body += section("Updated", "Updated", updated)
        body += "<h2>Field changes (\(fieldChanges.count))</h2>\n"
        body += historyTable(fieldChanges, records: true, values, user)
        body += "<h2>Deleted (\(deleted.count))</h2>\n"
        if deleted.isEmpty {
            body += "<p class=\"muted\">None</p>\n"
        } else {
            body += "<div class=\"scroll\"><table><thead><tr><th scope=\"col\">Deleted</th><th scope=\"col\">Table</th>"
            body +=
                "<th scope=\"col\">Record</th><th scope=\"col\">sys_id</th><th scope=\"col\">By</th></tr></thead><tbody>\n"
            for entry in deleted.reversed() {
                let label = instance.dictionary.table(entry.table)?.label ?? entry.table
                body += "<tr><td>\(values.time(entry.deletedOn))</td><td>\(HTML.escape(label))</td>"
                body += "<td>\(HTML.escape(entry.displayValue))</td><td>\(HTML.escape(entry.sysID))</td>"
                body += "<td>\(HTML.escape(entry.deletedBy))</td></tr>\n"
            }
            body += "</tbody></table></div>\n"
        }
        body +=
            "<p class=\"muted\">Deletions are kept in memory since the server started (the last \(DeletionLog.capacity)).</p>\n"
        if !truncated.isEmpty {
            body +=
                "<p class=\"muted\">Only the latest \(Self.changesPerTable) of: \(HTML.escape(truncated.joined(separator: ", "))).</p>\n"
        }
        return WebPage(title: "What changed", body: body, user: user)
    }

    /// A `since` value: `yyyy-MM-dd HH:mm:ss` or `yyyy-MM-dd` in UTC, or ISO 8601 `yyyy-MM-ddTHH:mm:ssZ`.
    static func date(_ text: String) -> Date? {
        var normalised = text.trimmingCharacters(in: .whitespaces)
        if normalised.hasSuffix("Z") { normalised.removeLast() }
        normalised = normalised.replacingOccurrences(of: "T", with: " ")
        return Coder.default.date(fromText: normalised)
    }
}
