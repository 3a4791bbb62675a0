import Foundation
import NowData

/// The form view, `/{table}.do?sys_id=...`: every field with its label and display value (its name and type in the
/// label's tooltip), arranged in the table's form layout (``FormLayout``: sections of two columns, the fields it does
/// not name folded under "Other fields"), references as links, journals as their entries, the record's attachments,
/// its history (each field's changes, `sys_audit`) and its audit; Update
/// (in the header and below the fields) goes to the Table API's PATCH as the user (its business rules, and its
/// refusals with the platform's message), and Delete, after a confirmation page, to its DELETE.
extension WebInterface {
    func form(_ table: TableDefinition, _ request: NowHTTPRequest, _ user: WebUser) -> NowHTTPResponse {
        let sysID = request.queryItems.last { $0.name == "sys_id" }?.value ?? ""
        guard !sysID.isEmpty else {
            return WebPage.message(
                table.label, "No sys_id given: open a record from its list.", user: user, status: 400
            )
            .response
        }
        let action =
            request.method.uppercased() == "POST"
            ? (WebForm(body: request.body)["sysparm_action"] ?? "")
            : (request.queryItems.last { $0.name == "sysparm_action" }?.value ?? "")
        let read = record(table, sysID, user)
        guard case .success(let found) = read else {
            if case .failure(let error) = read {
                return WebPage.message(table.label, error.text, user: user, status: error.status).response
            }
            return WebPage.message(table.label, "No Record found", user: user, status: 404).response
        }
        let (recordTable, current) = found
        let path = "/\(recordTable.name).do"
        switch (request.method.uppercased(), action) {
        case ("GET", "delete"):
            return deleteConfirmation(recordTable, sysID, current, user).response
        case ("POST", "delete"):
            let response = api("DELETE", "/api/now/table/\(recordTable.name)/\(sysID)", as: user)
            if case .failure(let error) = Self.result(response) {
                return formPage(recordTable, sysID, current, user, error: error).response
            }
            return WebPage.redirect(WebForm.url("/\(recordTable.name)_list.do", [("sysparm_msg", "deleted")]))
        case ("POST", _):
            let changes: [(String, JSONValue)]
            switch self.changes(WebForm(body: request.body), recordTable, current, user) {
            case .failure(let error): return formPage(recordTable, sysID, current, user, error: error).response
            case .success(let found): changes = found
            }
            guard !changes.isEmpty else {
                return WebPage.redirect(WebForm.url(path, [("sys_id", sysID), ("sysparm_msg", "saved")]))
            }
            let response = api(
                "PATCH", "/api/now/table/\(recordTable.name)/\(sysID)", body: .object(JSONObject(changes)), as: user)
            if case .failure(let error) = Self.result(response) {
                return formPage(recordTable, sysID, current, user, error: error).response
            }
            return WebPage.redirect(WebForm.url(path, [("sys_id", sysID), ("sysparm_msg", "saved")]))
        default:
            func parameter(_ name: String) -> String { request.queryItems.last { $0.name == name }?.value ?? "" }
            let chosen = (field: parameter("sysparm_lookup_field"), sysID: parameter("sysparm_lookup_value"))
            var page = formPage(
                recordTable, sysID, current, user, error: nil,
                chosen: chosen.field.isEmpty || chosen.sysID.isEmpty ? nil : chosen)
            page.body = message(request) + page.body
            return page.response
        }
    }

    /// The record, read with display values through its own class's table (an incident opened from `task`
    /// shows the incident's fields).
    private func record(_ table: TableDefinition, _ sysID: String, _ user: WebUser)
        -> Result<(TableDefinition, JSONValue), WebAPIError>
    {
        let path = "/api/now/table/\(table.name)/\(sysID)"
        let query = [("sysparm_display_value", DisplayValueMode.all.rawValue)]
        switch Self.result(api("GET", path, query, as: user)) {
        case .failure(let error): return .failure(error)
        case .success(let record):
            let className = WebValues.value(record["sys_class_name"])
            guard className != table.name, let stored = instance.dictionary.table(className),
                instance.dictionary.table(className, extends: table.name)
            else { return .success((table, record)) }
            return Self.result(api("GET", "/api/now/table/\(className)/\(sysID)", query, as: user)).map {
                (stored, $0)
            }
        }
    }

    /// The fields a form post changes: those whose submitted value differs from the stored one (a reference's from
    /// its display value, the value it is written as), and journal entries that are not empty. A reference is
    /// saved by its record's display value (or sys_id), looked up as the user; a name that matches no record, or
    /// several, is refused with what to write instead. System and password fields are never taken from a form.
    func changes(_ form: WebForm, _ table: TableDefinition, _ current: JSONValue, _ user: WebUser)
        -> Result<[(String, JSONValue)], WebAPIError>
    {
        var changes: [(String, JSONValue)] = []
        for field in table.fields where !TableDefinition.systemFieldNames.contains(field.name) && !field.isPassword {
            guard let submitted = form[field.name] else { continue }
            let value = submitted.replacingOccurrences(of: "\r\n", with: "\n")
            if Self.journalFieldNames.contains(field.name) {
                if !value.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                    changes.append((field.name, .string(value)))
                }
            } else if case .reference(let target) = field.type {
                let written = value.trimmingCharacters(in: .whitespaces)
                guard written != Self.referenceText(current[field.name]) else { continue }
                if written.isEmpty {
                    changes.append((field.name, .string("")))
                    continue
                }
                switch reference(written, field, target: target, user) {
                case .success(let sysID): changes.append((field.name, .string(sysID)))
                case .failure(let error): return .failure(error)
                }
            } else if value != WebValues.value(current[field.name]) {
                changes.append((field.name, .string(value)))
            }
        }
        return .success(changes)
    }

    /// How a reference field is written in its box: the display value of its record, else (no record, or one
    /// without a display value) the stored sys_id.
    static func referenceText(_ json: JSONValue?) -> String {
        let display = WebValues.displayValue(json)
        return display.isEmpty ? WebValues.value(json) : display
    }

    /// The sys_id of the one record of `target` whose display value (or sys_id) is `text`, read as the user.
    private func reference(_ text: String, _ field: FieldDefinition, target: String, _ user: WebUser)
        -> Result<String, WebAPIError>
    {
        guard let targetTable = instance.dictionary.table(target) else { return .success(text) }
        let query = [targetTable.displayField, "sys_id"].map { name in
            EncodedQuery.text(.condition(.init(field: name, op: .equals, value: text)))
        }.joined(separator: "^OR")
        let found = Self.result(
            api(
                "GET", "/api/now/table/\(target)",
                [("sysparm_query", query), ("sysparm_fields", "sys_id"), ("sysparm_limit", "2")], as: user))
        let matches: [JSONValue]
        switch found {
        case .failure(let error): return .failure(error)
        case .success(let result): matches = result.array ?? []
        }
        switch matches.count {
        case 1:
            return .success(WebValues.value(matches[0]["sys_id"]))
        case 0:
            return .failure(
                WebAPIError(
                    status: 400, message: field.label,
                    detail: "no \(targetTable.label) record is named '\(text)'; pick one from the list as you type"))
        default:
            return .failure(
                WebAPIError(
                    status: 400, message: field.label,
                    detail: "several \(targetTable.label) records are named '\(text)'; write the sys_id of one"))
        }
    }

    /// A `<datalist>` of the first display values of `target`'s records, which the browser offers as one types in
    /// a reference field's box (no script): the lookup of the platform's reference fields.
    private func referenceChoices(_ target: String, _ user: WebUser) -> String {
        guard let targetTable = instance.dictionary.table(target),
            case .success(let result) = Self.result(
                api(
                    "GET", "/api/now/table/\(target)",
                    [
                        ("sysparm_query", "ORDERBY\(targetTable.displayField)"),
                        ("sysparm_fields", targetTable.displayField), ("sysparm_limit", String(Self.referenceChoiceLimit)),
                    ], as: user))
        else { return "" }
        let names = (result.array ?? []).map { WebValues.value($0[targetTable.displayField]) }.filter { !$0.isEmpty }
        return "<datalist id=\"\(HTML.escape("l_" + target))\">"
            + names.map { "<option value=\"\(HTML.escape($0))\"></option>" }.joined() + "</datalist>\n"
    }

    /// The most records a reference field's list of choices offers (a name further on is still saved when typed).
    static let referenceChoiceLimit = 200

    /// The form of a record, with an error above it when a write was refused.
    /// With `chosen`, the reference field it names shows the record chosen on the lookup page, not saved yet.
    private func formPage(
        _ table: TableDefinition, _ sysID: String, _ record: JSONValue, _ user: WebUser, error: WebAPIError?,
        chosen: (field: String, sysID: String)? = nil
    ) -> WebPage {
        let values = WebValues(dictionary: instance.dictionary, timeZone: user.timeZone)
        let path = "/\(table.name).do"
        let name = WebValues.displayValue(record[table.displayField])
        let deleteLink =
            "<a href=\"\(HTML.href(path, [("sys_id", sysID), ("sysparm_action", "delete")]))\">Delete\u{2026}</a>"
        // The header's Update submits the form below (HTML's form attribute), as the platform's header buttons do.
        let actions = "<button type=\"submit\" form=\"record\">Update</button> \(deleteLink)"
        var body = "<div class=\"form-header\"><h1>\(HTML.escape(table.label)) "
        body += "<span class=\"muted\">\(HTML.escape(name.isEmpty ? sysID : name))</span></h1>"
        body += "<div class=\"actions\">\(actions)</div></div>\n"
        if let error { body += "<p class=\"error\" role=\"alert\">\(HTML.escape(error.text))</p>\n" }
        body +=
            "<p><a href=\"\(HTML.href("/\(table.name)_list.do"))\">\u{2190} \(HTML.escape(table.label)) list</a></p>\n"
        body += "<form id=\"record\" method=\"post\" action=\"\(HTML.href(path, [("sys_id", sysID)]))\">"
        body += "\(WebPage.csrfField(user))\n"
        body += "<input type=\"hidden\" name=\"sysparm_action\" value=\"save\">\n"
        var targets: [String] = []
        func rows(_ names: [String]) -> String {
            names.compactMap(table.field).map { field in
                if case .reference(let target) = field.type, !targets.contains(target) { targets.append(target) }
                if let chosen, chosen.field == field.name, case .reference(let target) = field.type {
                    return fieldRow(field, chosenReference(chosen.sysID, target, user), values, table, sysID, user)
                        .replacingOccurrences(
                            of: "</span>\n", with: "<span class=\"note\">Chosen: saved on Update</span></span>\n")
                }
                return fieldRow(field, record[field.name], values, table, sysID, user)
            }.joined()
        }
        let layout = FormLayout.of(table)
        var shown: Set<String> = TableDefinition.systemFieldNames
        for section in layout.sections {
            let names = section.fieldNames.filter { table.field($0) != nil && !shown.contains($0) }
            guard !names.isEmpty else { continue }
            shown.formUnion(names)
            body += "<section class=\"form-section\">"
            if let title = section.title { body += "<h2>\(HTML.escape(title))</h2>" }
            body += "\n"
            let columns = [section.left, section.right].map { rows($0.filter(names.contains)) }.filter { !$0.isEmpty }
            if !columns.isEmpty {
                body += "<div class=\"columns\">\n"
                body += columns.map { "<div class=\"fields\">\n\($0)</div>\n" }.joined() + "</div>\n"
            }
            let wide = section.wide.filter(names.contains)
            if !wide.isEmpty { body += "<div class=\"fields\">\n\(rows(wide))</div>\n" }
            body += "</section>\n"
        }
        // The fields the layout does not name, folded away (no script: a details element).
        let rest = table.fields.map(\.name).filter { !shown.contains($0) }
        if !rest.isEmpty {
            body += "<details class=\"form-section\"><summary>Other fields</summary>\n<div class=\"fields\">\n"
            body += rows(rest) + "</div>\n</details>\n"
        }
        body += "<div class=\"actions\">\(actions)</div>\n"
        body += targets.map { referenceChoices($0, user) }.joined() + "</form>\n"
        body += attachmentsSection(table, sysID, values, user)
        body += "<h2>History</h2>\n" + historyTable(auditEntries(of: sysID, as: user), records: false, values, user)
        body += "<h2>Audit</h2>\n<div class=\"fields\">\n"
        for field in TableDefinition.systemFields where table.field(field.name) != nil {
            body += "<span class=\"label\" title=\"\(Self.fieldTitle(field))\">\(HTML.escape(field.label))</span>"
            body += "<span class=\"value\">\(values.html(record[field.name], field: field))</span>\n"
        }
        body += "</div>\n"
        return WebPage(title: "\(table.label) \(name)", body: body, user: user, status: error?.status ?? 200)
    }

    /// The record `sysID` of `target` as a reference field's value read with display values; its sys_id alone when
    /// the user cannot read it.
    private func chosenReference(_ sysID: String, _ target: String, _ user: WebUser) -> JSONValue {
        var shown = sysID
        if let definition = instance.dictionary.table(target),
            case .success(let record) = Self.result(
                api(
                    "GET", "/api/now/table/\(target)/\(sysID)",
                    [("sysparm_fields", definition.displayField), ("sysparm_display_value", "true")], as: user)),
            let name = record[definition.displayField]?.string, !name.isEmpty
        {
            shown = name
        }
        return ["value": .string(sysID), "display_value": .string(shown)]
    }

    /// A label's tooltip: the field's name and type, `caller_id (reference to sys_user)`, HTML-escaped.
    static func fieldTitle(_ field: FieldDefinition) -> String {
        HTML.escape("\(field.name) (\(field.type.name))")
    }

    /// One field of the form: its label (its name and type in the tooltip), an input holding its value, and its
    /// display value.
    private func fieldRow(
        _ field: FieldDefinition, _ json: JSONValue?, _ values: WebValues, _ table: TableDefinition, _ sysID: String,
        _ user: WebUser
    ) -> String {
        let id = "f_" + field.name
        let value = WebValues.value(json)
        let title = Self.fieldTitle(field)
        // A password is shown masked, not as a field to fill: its label labels nothing.
        var row =
            field.isPassword
            ? "<span class=\"label\" title=\"\(title)\">\(HTML.escape(field.label))</span><span class=\"value\">"
            : "<label for=\"\(HTML.escape(id))\" title=\"\(title)\">\(HTML.escape(field.label))</label><span class=\"value\">"
        let name = HTML.escape(field.name)
        if field.isPassword {
            row += values.html(json, field: field)
        } else if Self.journalFieldNames.contains(field.name) {
            row += "<textarea id=\"\(HTML.escape(id))\" name=\"\(name)\" placeholder=\"Add an entry\"></textarea>"
            row += journal(field, value, table, sysID, values, user)
        } else {
            switch field.type {
            case _ where !field.choices.isEmpty:
                row +=
                    "<select id=\"\(HTML.escape(id))\" name=\"\(name)\"><option value=\"\"\(value.isEmpty ? " selected" : "")>-- None --</option>"
                var known = value.isEmpty
                for choice in field.choices {
                    let selected = choice.value == value
                    known = known || selected
                    row +=
                        "<option value=\"\(HTML.escape(choice.value))\"\(selected ? " selected" : "")>\(HTML.escape(choice.label))</option>"
                }
                if !known { row += "<option value=\"\(HTML.escape(value))\" selected>\(HTML.escape(value))</option>" }
                row += "</select>"
            case .boolean:
                row += "<select id=\"\(HTML.escape(id))\" name=\"\(name)\">"
                for option in ["true", "false"] {
                    row += "<option value=\"\(option)\"\(value == option ? " selected" : "")>\(option)</option>"
                }
                if value != "true", value != "false" { row += "<option value=\"\" selected></option>" }
                row += "</select>"
            case .reference(let target):
                row +=
                    "<input type=\"text\" id=\"\(HTML.escape(id))\" name=\"\(name)\" list=\"\(HTML.escape("l_" + target))\" "
                    + "value=\"\(HTML.escape(Self.referenceText(json)))\" autocomplete=\"off\">"
                let lookup = [("sysparm_table", table.name), ("sys_id", sysID), ("sysparm_field", field.name)]
                row += " <a href=\"\(HTML.href("/lookup.do", lookup))\">Look up</a>"
            case .string where field.name == "description" || value.contains("\n"):
                row += "<textarea id=\"\(HTML.escape(id))\" name=\"\(name)\">\(HTML.escape(value))</textarea>"
            default:
                row +=
                    "<input type=\"text\" id=\"\(HTML.escape(id))\" name=\"\(name)\" value=\"\(HTML.escape(value))\">"
            }
            switch field.type {
            case .reference:
                if !value.isEmpty { row += "<span>\(values.html(json, field: field))</span>" }
            case .dateTime:
                row += "<span class=\"muted\">UTC\(value.isEmpty ? "" : "; " + values.html(json, field: field))</span>"
            default:
                break
            }
        }
        return row + "</span>\n"
    }

    /// A journal field's entries: those of `sys_journal_field` when the dictionary has that table, else the field's
    /// one stored value (the local instance keeps no journal history).
    private func journal(
        _ field: FieldDefinition, _ value: String, _ table: TableDefinition, _ sysID: String, _ values: WebValues,
        _ user: WebUser
    ) -> String {
        var entries: [(String, String, String)] = []
        if instance.dictionary.table("sys_journal_field") != nil,
            case .success(let result) = Self.result(
                api(
                    "GET", "/api/now/table/sys_journal_field",
                    [
                        ("sysparm_query", "element_id=\(sysID)^element=\(field.name)^ORDERBYDESCsys_created_on"),
                        ("sysparm_fields", "value,sys_created_on,sys_created_by"),
                    ], as: user))
        {
            for entry in result.array ?? [] {
                entries.append(
                    (
                        WebValues.value(entry["sys_created_on"]), WebValues.value(entry["sys_created_by"]),
                        WebValues.value(entry["value"])
                    ))
            }
        } else if !value.isEmpty {
            entries.append(("", "", value))
        }
        guard !entries.isEmpty else { return "<span class=\"muted\">No entries</span>" }
        return "<ul class=\"journal\">"
            + entries.map { on, by, text in
                let stamp = on.isEmpty ? "" : values.time(on) + " " + HTML.escape(by) + ": "
                return "<li>\(stamp)\(HTML.escape(text))</li>"
            }.joined() + "</ul>"
    }

    /// The record's attachments, each a download link.
    private func attachmentsSection(_ table: TableDefinition, _ sysID: String, _ values: WebValues, _ user: WebUser)
        -> String
    {
        guard instance.dictionary.table("sys_attachment") != nil,
            case .success(let result) = Self.result(
                api(
                    "GET", "/api/now/table/sys_attachment",
                    [
                        ("sysparm_query", "table_name=\(table.name)^table_sys_id=\(sysID)^ORDERBYfile_name"),
                        ("sysparm_fields", "sys_id,file_name,size_bytes,content_type"),
                    ], as: user)),
            let attachments = result.array, !attachments.isEmpty
        else { return "" }
        var html = "<h2>Attachments</h2>\n<ul>\n"
        for attachment in attachments {
            let id = WebValues.value(attachment["sys_id"])
            html +=
                "<li><a href=\"\(HTML.href("/sys_attachment.do", [("sys_id", id)]))\" download>"
                + HTML.escape(WebValues.value(attachment["file_name"])) + "</a> <span class=\"muted\">"
                + HTML.escape(WebValues.value(attachment["content_type"])) + ", "
                + HTML.escape(WebValues.value(attachment["size_bytes"])) + " bytes</span></li>\n"
        }
        return html + "</ul>\n"
    }

    /// The page that asks before a delete.
    private func deleteConfirmation(_ table: TableDefinition, _ sysID: String, _ record: JSONValue, _ user: WebUser)
        -> WebPage
    {
        let name = WebValues.displayValue(record[table.displayField])
        let path = "/\(table.name).do"
        return WebPage(
            title: "Delete \(name)",
            body: """
                <h1>Delete \(HTML.escape(table.label)) \(HTML.escape(name.isEmpty ? sysID : name))?</h1>
                <p>The record is deleted at once, with its attachments; this cannot be undone.</p>
                <form method="post" action="\(HTML.href(path, [("sys_id", sysID)]))">\(WebPage.csrfField(user))\
                <input type="hidden" name="sysparm_action" value="delete">\
                <div class="actions"><button type="submit" class="danger">Delete</button> \
                <a href="\(HTML.href(path, [("sys_id", sysID)]))">Cancel</a></div></form>
                """, user: user)
    }

    /// `/sys_attachment.do?sys_id=...`: the file, as the Attachment API gives it, to save.
    func attachment(_ request: NowHTTPRequest, _ user: WebUser) -> NowHTTPResponse {
        let sysID = request.queryItems.last { $0.name == "sys_id" }?.value ?? ""
        let response = api("GET", "/api/now/attachment/\(WebForm.encode(sysID))/file", as: user)
        if case .failure(let error) = Self.result(response) {
            return WebPage.message("Attachment", error.text, user: user, status: error.status).response
        }
        var headers = HTTPHeaders(WebPage.securityHeaders)
        headers.add(name: "Content-Type", value: "application/octet-stream")
        let metadata = response.headers.value(named: "X-Attachment-Metadata").flatMap {
            try? JSONValue(json: Data($0.utf8))
        }
        let fileName = metadata?["file_name"]?.string ?? "attachment"
        headers.add(name: "Content-Disposition", value: "attachment; filename*=UTF-8''" + WebForm.encode(fileName))
        var file = NowHTTPResponse(statusCode: 200, headers: headers, body: response.body)
        file.bodyFile = response.bodyFile  // the Attachment API answers with the stored file, sent as it is read
        return file
    }
}
