import Foundation
import NowData

/// The navigator (`/`, `/now`): every table of `sys_db_object`, grouped by the platform's application menus (the
/// one each table declares, ``TableDefinition/application``, or its `sys_scope` when scoped), with the number of its records the user may read;
/// the header's search box filters it by table name and label.
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
        let counts = recordCounts(shown.map(\.name), as: user)
        var groups: [String: [(name: String, label: String, scope: String)]] = [:]
        for table in shown {
            let scoped = !table.scope.isEmpty && table.scope.lowercased() != "global"
            groups[scoped ? table.scope : instance.dictionary.application(of: table.name), default: []].append(table)
        }
        var body = "<h1>Tables</h1>\n"
        if !search.isEmpty {
            body += "<p class=\"count\" role=\"status\">\(shown.count) of \(tables.count) tables match "
            body += "\u{201C}\(HTML.escape(search))\u{201D} <a href=\"/now\">Show all</a></p>\n"
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
        var page = WebPage(title: "Tables", body: body, user: user)
        page.search = search
        return page
    }

    /// How many records of each table `user` may read (a parent's count includes its children's), asked of the
    /// Aggregate API as that user, so the counts go through the same access decision as every route; a table the
    /// user may not count shows none.
    private func recordCounts(_ names: [String], as user: WebUser) -> [String: Int] {
        var counts: [String: Int] = [:]
        for name in names {
            let answer = api("GET", "/api/now/stats/\(name)", [("sysparm_count", "true")], as: user)
            guard case .success(let result) = Self.result(answer),
                let count = result["stats"]?["count"]?.string.flatMap(Int.init)
            else { continue }
            counts[name] = count
        }
        return counts
    }
}
