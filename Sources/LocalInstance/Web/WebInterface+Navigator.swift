import Foundation
import NowData

/// The navigator (`/`, `/now`): every table of `sys_db_object`, grouped by application, with its record count,
/// and a search over table names and labels.
extension WebInterface {
    func navigator(_ request: NowHTTPRequest, _ user: WebUser) -> WebPage {
        let search = (request.queryItems.last { $0.name == "sysparm_search" }?.value ?? "")
            .trimmingCharacters(in: .whitespaces)
        let tables: [(name: String, label: String, scope: String)]
        switch Self.result(
            api(
                "GET", "/api/now/table/sys_db_object",
                [
                    ("sysparm_fields", "name,label,sys_scope"), ("sysparm_query", "ORDERBYlabel"),
                    ("sysparm_display_value", DisplayValueMode.display.rawValue),
                ], as: user))
        {
        case .failure(let error):
            return WebPage.message("Tables", error.text, user: user, status: error.status)
        case .success(let result):
            tables = (result.array ?? []).compactMap { record in
                guard let name = record["name"]?.string, instance.dictionary.table(name) != nil else { return nil }
                return (name, record["label"]?.string ?? name, WebValues.displayValue(record["sys_scope"]))
            }
        }
        let needle = search.lowercased()
        let shown = tables.filter {
            needle.isEmpty || $0.name.lowercased().contains(needle) || $0.label.lowercased().contains(needle)
        }
        let counts = recordCounts(shown.map(\.name))
        var groups: [String: [(name: String, label: String, scope: String)]] = [:]
        for table in shown {
            let scoped = !table.scope.isEmpty && table.scope.lowercased() != "global"
            groups[scoped ? table.scope : application(of: table.name), default: []].append(table)
        }
        var body = "<h1>Tables</h1>\n"
        body += """
            <form class="query" method="get" action="/now" role="search">\
            <label for="table-search" class="hidden">Search tables</label>\
            <input id="table-search" type="text" name="sysparm_search" value="\(HTML.escape(search))" \
            placeholder="Table name or label"><button type="submit">Search</button></form>

            """
        if shown.isEmpty {
            body += "<p>No table matches \u{201C}\(HTML.escape(search))\u{201D}.</p>\n"
        }
        body += "<div class=\"groups\">\n"
        for group in groups.keys.sorted() {
            body += "<section aria-label=\"\(HTML.escape(group))\"><h2>\(HTML.escape(group))</h2><ul>\n"
            for table in groups[group] ?? [] {
                let count = counts[table.name].map(String.init) ?? ""
                body += """
                    <li><a href="\(HTML.href("/\(table.name)_list.do"))">\(HTML.escape(table.label))</a>\
                    <span class="count" title="\(HTML.escape(table.name))">\(count)</span></li>

                    """
            }
            body += "</ul></section>\n"
        }
        body += "</div>\n"
        return WebPage(title: "Tables", body: body, user: user)
    }

    /// The application a table belongs to in the navigator when its `sys_db_object` record names no scoped
    /// application (`sys_scope`): the task and CMDB families, users and organisation, the system's own tables,
    /// custom tables.
    func application(of name: String) -> String {
        let dictionary = instance.dictionary
        if name == "task" || dictionary.table(name, extends: "task") { return "Service Management" }
        if name == "cmdb_ci" || name.hasPrefix("cmdb") || dictionary.table(name, extends: "cmdb_ci") {
            return "Configuration"
        }
        if name.hasPrefix("u_") { return "Custom tables" }
        if name.hasPrefix("sys_user") || name.hasPrefix("cmn_") || name.hasPrefix("core_") {
            return "Users and organisation"
        }
        if name.hasPrefix("sys") || name.hasPrefix("oauth") { return "System" }
        return "Other"
    }

    /// How many records each table has (a parent's count includes its children's), read in one snapshot.
    private func recordCounts(_ names: [String]) -> [String: Int] {
        do {
            return try instance.database.read { [instance] db in
                var counts: [String: Int] = [:]
                for name in names {
                    guard let table = instance.dictionary.table(name) else { continue }
                    counts[name] = try instance.store.count(table, where: "", [], db)
                }
                return counts
            }
        } catch {
            instance.log("local instance: web navigator: cannot count records: \(error)")
            return [:]
        }
    }
}
