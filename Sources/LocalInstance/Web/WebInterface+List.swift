import Foundation
import NowData

/// The list view, `/{table}_list.do`: the platform's `sysparm_query` (read by the instance's own parser, shown as
/// removable condition chips and as editable text), `sysparm_fields` or the table's default columns, sorting by a
/// column header, paging with `sysparm_first_row` (1-based) and `sysparm_rows`, and a count. `sysparm_view` is
/// accepted and ignored.
extension WebInterface {
    /// Rows per page unless `sysparm_rows` says otherwise (at most ``maximumRows``).
    static let defaultRows = 20
    static let maximumRows = 100

    func list(_ table: TableDefinition, _ request: NowHTTPRequest, _ user: WebUser) -> NowHTTPResponse {
        func parameter(_ name: String) -> String { request.queryItems.last { $0.name == name }?.value ?? "" }
        let text = parameter("sysparm_query")
        let fieldsParameter = parameter("sysparm_fields")
        let values = WebValues(dictionary: instance.dictionary, timeZone: user.timeZone)
        let path = "/\(table.name)_list.do"
        // A condition added with the form below the chips: appended, then the list at its own address.
        let addField = parameter("sysparm_add_field")
        if !addField.isEmpty, let op = QueryOperator(rawValue: parameter("sysparm_add_op")) {
            let condition = EncodedQuery.text(
                .condition(.init(field: addField, op: op, value: parameter("sysparm_add_value"))))
            let query = (try? EncodedQuery.parse(text))?.text(adding: condition) ?? condition
            return WebPage.redirect(
                WebForm.url(path, [("sysparm_query", query), ("sysparm_fields", fieldsParameter)]))
        }
        let parsed: EncodedQuery
        do {
            parsed = try EncodedQuery.parse(text)
        } catch {
            return WebPage.message(table.label, "Invalid query: \(error)", user: user, status: 400).response
        }
        let columns =
            fieldsParameter.isEmpty
            ? defaultColumns(table)
            : fieldsParameter.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
                !$0.isEmpty
            }
        let rows = min(max(Int(parameter("sysparm_rows")) ?? Self.defaultRows, 1), Self.maximumRows)
        let firstRow = max(Int(parameter("sysparm_first_row")) ?? 1, 1)
        let response = api(
            "GET", "/api/now/table/\(table.name)",
            [
                ("sysparm_query", text), ("sysparm_display_value", DisplayValueMode.all.rawValue),
                ("sysparm_fields", (["sys_id", "sys_class_name"] + columns).joined(separator: ",")),
                ("sysparm_limit", String(rows)), ("sysparm_offset", String(firstRow - 1)),
            ], as: user)
        let records: [JSONValue]
        switch Self.result(response) {
        case .failure(let error):
            return WebPage.message(table.label, error.text, user: user, status: error.status).response
        case .success(let result):
            records = result.array ?? []
        }
        let total = response.headers.value(named: "X-Total-Count").flatMap { Int($0) } ?? records.count
        var keep: [(String, String)] = [("sysparm_query", text), ("sysparm_fields", fieldsParameter)]
        if rows != Self.defaultRows { keep.append(("sysparm_rows", String(rows))) }
        var body = "<h1>\(HTML.escape(table.label)) <span class=\"muted\">\(HTML.escape(table.name))</span></h1>\n"
        body += message(request)
        body += chips(parsed, table, values, path: path, fields: fieldsParameter)
        body += queryForm(text, table, path: path, fields: fieldsParameter)
        body += """
            <p class="count" role="status">\(Self.countText(total, first: firstRow, shown: records.count))</p>
            <div class="scroll"><table>
            <caption class="hidden">\(HTML.escape(table.label)) records</caption>
            <thead><tr>
            """
        let ordering = parsed.ordering.first
        for column in columns {
            let sortedHere = ordering?.field == column
            let descending = sortedHere && !(ordering?.descending ?? false)
            let link = HTML.href(
                path, [("sysparm_query", parsed.text(sortedBy: column, descending: descending))] + keep.dropFirst())
            let arrow = sortedHere ? ((ordering?.descending ?? false) ? " \u{25BC}" : " \u{25B2}") : ""
            let sort =
                sortedHere
                ? ((ordering?.descending ?? false) ? " aria-sort=\"descending\"" : " aria-sort=\"ascending\"") : ""
            body +=
                "<th scope=\"col\"\(sort)><a href=\"\(link)\">\(HTML.escape(values.label(column, on: table)))\(arrow)</a></th>"
        }
        body += "</tr></thead>\n<tbody>\n"
        for record in records {
            let sysID = WebValues.value(record["sys_id"])
            let className = WebValues.value(record["sys_class_name"])
            let recordTable = instance.dictionary.table(className).map(\.name) ?? table.name
            body += "<tr>"
            for (index, column) in columns.enumerated() {
                let field = values.field(column, on: table)
                var cell = values.html(record[column], field: field)
                if index == 0 {
                    let shown = cell.isEmpty ? "(empty)" : WebValues.displayValue(record[column])
                    cell =
                        "<a href=\"\(HTML.href("/\(recordTable).do", [("sys_id", sysID)]))\">\(HTML.escape(shown))</a>"
                }
                let numeric = field.map { ($0.type == .integer || $0.type == .decimal) && $0.choices.isEmpty } ?? false
                body += numeric ? "<td class=\"number\">\(cell)</td>" : "<td>\(cell)</td>"
            }
            body += "</tr>\n"
        }
        if records.isEmpty {
            body += "<tr><td colspan=\"\(max(columns.count, 1))\">No records to display</td></tr>\n"
        }
        body += "</tbody></table></div>\n"
        body += pager(path, keep, first: firstRow, rows: rows, total: total)
        return WebPage(title: table.label, body: body, user: user).response
    }

    /// The columns without `sysparm_fields`: the display field, then the table's own fields (not system, journal
    /// or password fields), at most seven in all, and when it was last updated.
    func defaultColumns(_ table: TableDefinition) -> [String] {
        let skipped: Set<String> = TableDefinition.systemFieldNames.union(Self.journalFieldNames).union(["description"])
        var columns = [table.displayField]
        let preferred = Self.preferredColumns.compactMap { table.field($0) }
        for field in preferred + table.fields where !skipped.contains(field.name) && !field.isPassword {
            guard columns.count < 7 else { break }
            if !columns.contains(field.name) { columns.append(field.name) }
        }
        return columns + ["sys_updated_on"]
    }

    /// The fields a list shows first when its table has them.
    static let preferredColumns = [
        "short_description", "name", "user_name", "caller_id", "priority", "state", "assignment_group", "assigned_to",
        "email", "category",
    ]

    /// `Rows 1 - 20 of 61`.
    static func countText(_ total: Int, first: Int, shown: Int) -> String {
        shown == 0 ? "\(total) records" : "Rows \(first) - \(first + shown - 1) of \(total)"
    }

    /// The query's conditions and sort terms as chips, each with a link that removes it; a condition the instance
    /// does not apply (an unknown field, a value of the wrong type) struck through, with what it does and why.
    private func chips(
        _ query: EncodedQuery, _ table: TableDefinition, _ values: WebValues, path: String, fields: String
    ) -> String {
        var items: [String] = []
        func remove(_ rest: EncodedQuery, _ label: String) -> String {
            "<a href=\"\(HTML.href(path, [("sysparm_query", rest.text), ("sysparm_fields", fields)]))\" "
                + "aria-label=\"Remove \(HTML.escape(label))\" title=\"Remove\">\u{00D7}</a>"
        }
        for (g, group) in query.groups.enumerated() {
            for (c, clause) in group.clauses.enumerated() {
                for (t, term) in clause.terms.enumerated() {
                    let join = t > 0 ? "or" : (c > 0 ? "and" : (g > 0 ? "new query" : ""))
                    let label: String
                    switch term {
                    case .condition(let condition):
                        label = conditionLabel(condition, table, values)
                    case .join, .relatedList, .invalid:
                        label = EncodedQuery.text(term)
                    }
                    let joinText = join.isEmpty ? "" : "<span class=\"join\">\(join)</span> "
                    // A condition the instance does not apply (as the API's answer does not) is marked so, with why.
                    var context = SQLQueryTranslator.Context()
                    let translated = instance.handler.translator.condition(
                        term, table: table.name, row: table.name.quotedIdentifier, &context)
                    guard case .failure(let invalid) = translated else {
                        items.append(
                            "<li class=\"chip\">\(joinText)\(HTML.escape(label)) "
                                + remove(query.removing(group: g, clause: c, term: t), label) + "</li>")
                        continue
                    }
                    let effect =
                        instance.handler.translator.invalidQueryReturnsNoRows ? "matches no rows" : "ignored"
                    items.append(
                        "<li class=\"chip invalid\">\(joinText)<s>\(HTML.escape(label))</s> "
                            + "<span class=\"note\">\(effect): \(HTML.escape(invalid.reason))</span> "
                            + remove(query.removing(group: g, clause: c, term: t), label) + "</li>")
                }
            }
        }
        for (index, sort) in query.ordering.enumerated() {
            let label = "order by \(values.label(sort.field, on: table))\(sort.descending ? " (descending)" : "")"
            items.append(
                "<li class=\"chip\">\(HTML.escape(label)) " + remove(query.removingOrdering(index), label) + "</li>")
        }
        guard !items.isEmpty else { return "" }
        return "<ul class=\"chips\" aria-label=\"Conditions\">\n" + items.joined(separator: "\n") + "\n</ul>\n"
    }

    /// How a chip reads a condition: the field's label, the operator in words and the value, a choice's value as
    /// its label (`State is not Closed`, `Priority is one of 1 - Critical, 2 - High`).
    private func conditionLabel(_ condition: EncodedQuery.Condition, _ table: TableDefinition, _ values: WebValues)
        -> String
    {
        var value = condition.value
        if let choices = values.field(condition.field, on: table)?.choices, !choices.isEmpty {
            let parts = [QueryOperator.isIn, .notIn].contains(condition.op) ? value.components(separatedBy: ",") : [value]
            value = parts.map { part in choices.first { $0.value == part }?.label ?? part }.joined(separator: ", ")
        }
        return [values.label(condition.field, on: table), Self.operatorLabel(condition.op), value].filter {
            !$0.isEmpty
        }.joined(separator: " ")
    }

    /// The encoded query as editable text, and a form that adds one condition.
    private func queryForm(_ text: String, _ table: TableDefinition, path: String, fields: String) -> String {
        let hiddenFields =
            fields.isEmpty ? "" : "<input type=\"hidden\" name=\"sysparm_fields\" value=\"\(HTML.escape(fields))\">"
        var options = ""
        for field in table.fields where !field.isPassword {
            options += "<option value=\"\(HTML.escape(field.name))\">\(HTML.escape(field.label))</option>"
        }
        var operators = ""
        for op in Self.formOperators {
            operators += "<option value=\"\(HTML.escape(op.rawValue))\">\(HTML.escape(Self.operatorLabel(op)))</option>"
        }
        return """
            <form class="query" method="get" action="\(HTML.escape(path))">\(hiddenFields)\
            <label for="sysparm_query" class="hidden">Encoded query</label>\
            <input type="text" id="sysparm_query" name="sysparm_query" value="\(HTML.escape(text))" \
            placeholder="Encoded query, e.g. active=true^priority<=2^ORDERBYnumber">\
            <button type="submit">Run</button></form>
            <form class="add" method="get" action="\(HTML.escape(path))">\(hiddenFields)\
            <input type="hidden" name="sysparm_query" value="\(HTML.escape(text))">\
            <label for="add-field" class="hidden">Field</label><select id="add-field" name="sysparm_add_field">\(options)</select>\
            <label for="add-op" class="hidden">Operator</label><select id="add-op" name="sysparm_add_op">\(operators)</select>\
            <label for="add-value" class="hidden">Value</label><input type="text" id="add-value" name="sysparm_add_value" placeholder="Value">\
            <button type="submit" class="plain">Add condition</button></form>

            """
    }

    /// The operators the add-condition form offers.
    static let formOperators: [QueryOperator] = [
        .equals, .notEquals, .contains, .doesNotContain, .startsWith, .endsWith, .lessThan, .lessThanOrEquals,
        .greaterThan, .greaterThanOrEquals, .isEmpty, .isNotEmpty, .isIn,
    ]

    /// How a chip names an operator.
    static func operatorLabel(_ op: QueryOperator) -> String {
        switch op {
        case .equals: "is"
        case .notEquals: "is not"
        case .like, .contains: "contains"
        case .notLike, .notLikeAlias, .doesNotContain: "does not contain"
        case .startsWith: "starts with"
        case .endsWith, .endsWithAlias: "ends with"
        case .isEmpty: "is empty"
        case .isNotEmpty: "is not empty"
        case .emptyString: "is empty string"
        case .anything: "is anything"
        case .isIn: "is one of"
        case .notIn: "is not one of"
        case .between: "between"
        case .on: "on"
        case .notOn: "not on"
        default: op.rawValue
        }
    }

    /// First, previous, next and last pages.
    func pager(_ path: String, _ keep: [(String, String)], first: Int, rows: Int, total: Int) -> String {
        func link(_ label: String, _ row: Int, _ rel: String) -> String {
            "<a href=\"\(HTML.href(path, keep + [("sysparm_first_row", String(row))]))\" rel=\"\(rel)\">\(label)</a>"
        }
        var links: [String] = []
        if first > 1 {
            links.append(link("\u{00AB} First", 1, "first"))
            links.append(link("\u{2039} Previous", max(1, first - rows), "prev"))
        }
        if first + rows <= total {
            links.append(link("Next \u{203A}", first + rows, "next"))
            links.append(link("Last \u{00BB}", ((total - 1) / rows) * rows + 1, "last"))
        }
        guard !links.isEmpty else { return "" }
        return "<nav class=\"pager\" aria-label=\"Pages\">" + links.joined(separator: " ") + "</nav>\n"
    }

    /// A short confirmation named by `sysparm_msg` (only known ones: the text is never taken from the URL).
    func message(_ request: NowHTTPRequest) -> String {
        switch request.queryItems.last(where: { $0.name == "sysparm_msg" })?.value {
        case "saved": "<p class=\"ok\" role=\"status\">Record updated</p>\n"
        case "deleted": "<p class=\"ok\" role=\"status\">Record deleted</p>\n"
        default: ""
        }
    }

    /// The fields shown as journals (entries added, not replaced).
    static let journalFieldNames: Set<String> = ["work_notes", "comments"]
}
