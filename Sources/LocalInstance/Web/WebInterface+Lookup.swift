import Foundation
import NowData

/// The reference lookup, `/lookup.do?sysparm_table=incident&sys_id=...&sysparm_field=assigned_to`: the records of
/// the field's table whose display value contains a search (`sysparm_search`), ordered by it, 20 a page, read as the
/// user; each links back to the form with that record chosen for the field (`sysparm_lookup_field`,
/// `sysparm_lookup_value`), to save with Update. No script: it serves a table too big for the form's list of names.
extension WebInterface {
    /// The records a lookup page lists.
    static let lookupRows = 20

    func lookup(_ request: NowHTTPRequest, _ user: WebUser) -> WebPage {
        func parameter(_ name: String) -> String { request.queryItems.last { $0.name == name }?.value ?? "" }
        let tableName = parameter("sysparm_table")
        let fieldName = parameter("sysparm_field")
        let sysID = parameter("sys_id")
        guard let table = instance.dictionary.table(tableName), let field = table.field(fieldName),
            case .reference(let targetName) = field.type, let target = instance.dictionary.table(targetName),
            !sysID.isEmpty
        else {
            return WebPage.message(
                "Look up",
                "Invalid lookup: give sysparm_table, sys_id and sysparm_field, a reference field of that table.",
                user: user, status: 400)
        }
        let search = parameter("sysparm_search").trimmingCharacters(in: .whitespaces)
        let first = max(1, Int(parameter("sysparm_first_row")) ?? 1)
        let display = target.displayField
        var query = search.isEmpty ? "" : "\(display)LIKE\(EncodedQuery.escaped(search))^"
        query += "ORDERBY\(display)"
        let response = api(
            "GET", "/api/now/table/\(target.name)",
            [
                ("sysparm_query", query), ("sysparm_fields", "sys_id,\(display)"),
                ("sysparm_limit", String(Self.lookupRows)), ("sysparm_offset", String(first - 1)),
                ("sysparm_display_value", "true"),
            ], as: user)
        let records: [JSONValue]
        switch Self.result(response) {
        case .failure(let error): return WebPage.message("Look up", error.text, user: user, status: error.status)
        case .success(let result): records = result.array ?? []
        }
        let total = response.headers.value(named: "X-Total-Count").flatMap { Int($0) } ?? records.count
        let form = "/\(table.name).do"
        let keep = [("sysparm_table", table.name), ("sys_id", sysID), ("sysparm_field", field.name)]
        var body = "<h1>Look up \(HTML.escape(target.label)) for \(HTML.escape(field.label))</h1>\n"
        body += "<p><a href=\"\(HTML.href(form, [("sys_id", sysID)]))\">\u{2190} Back to the \(HTML.escape(table.label))"
        body += " (nothing chosen)</a></p>\n"
        body += "<form class=\"query\" method=\"get\" action=\"/lookup.do\" role=\"search\">"
        body += keep.map { "<input type=\"hidden\" name=\"\($0.0)\" value=\"\(HTML.escape($0.1))\">" }.joined()
        body += "<label for=\"lookup-search\">\(HTML.escape(target.label)) name contains</label>"
        body += "<input type=\"text\" id=\"lookup-search\" name=\"sysparm_search\" value=\"\(HTML.escape(search))\">"
        body += "<button type=\"submit\">Search</button></form>\n"
        body += "<p class=\"count\" role=\"status\">\(Self.countText(total, first: first, shown: records.count))</p>\n"
        if !records.isEmpty {
            body += "<ul class=\"lookup\">\n"
            for record in records {
                let id = WebValues.value(record["sys_id"])
                let name = WebValues.displayValue(record[display])
                let back = [("sys_id", sysID), ("sysparm_lookup_field", field.name), ("sysparm_lookup_value", id)]
                body += "<li><a href=\"\(HTML.href(form, back))\">\(HTML.escape(name.isEmpty ? id : name))</a></li>\n"
            }
            body += "</ul>\n"
        }
        body += pager(
            "/lookup.do", keep + (search.isEmpty ? [] : [("sysparm_search", search)]), first: first,
            rows: Self.lookupRows, total: total)
        return WebPage(title: "Look up \(target.label)", body: body, user: user)
    }
}
