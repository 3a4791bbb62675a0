import Foundation
import NowData

/// POST, PUT and PATCH: the body's fields, validated; default values, the system fields and the table's rules
/// (``TableRules``, applied in `TableAPIHandler+Rules.swift`: auto-number, incident priority from impact and
/// urgency, active/resolved/closed from the state, ...).
///
/// Values the platform would not store are ignored with a log line, field by field, and the rest of the write goes
/// through: an unknown field name (also named in the response's ``unknownFieldsHeader``, with the tables of the
/// dictionary that have a field of that name), a system field (unless `sysparm_suppress_auto_sys_field=true`), a value that does
/// not fit its type (`"abc"` for an integer, a boolean other than true/false/1/0). This matches the platform,
/// which silently drops unknown fields and does not store non-numeric text in a numeric field. A date that is not
/// a real day and time in `yyyy-MM-dd HH:mm:ss`, `yyyy-MM-ddTHH:mm:ss` or `yyyy-MM-dd` (`2026-13-45 99:99:99`,
/// `2026-02-30`) is refused (400), as the platform refuses to parse it. A POST's own `sys_id` that is not 32 hex
/// digits is refused (400) rather than replaced: a client that gave one reads the record back by it. Upper-case
/// digits are accepted and stored as sent, as the platform does. A POST with no body and no Content-Type creates a
/// record of defaults, as on the platform.
extension TableAPIHandler {
    func create(_ table: TableDefinition, _ request: TableAPIRequest, _ parameters: TableParameters) throws
        -> NowHTTPResponse
    {
        let body = try bodyObject(request.request, emptyAllowed: true)
        let outputs = outputs(parameters, table)
        let timestamp = Timestamp.string(now())
        let unknown = unknownFields(body, table)
        let (sysID, rendered) = try database.write { db in
            let resolver = ReferenceResolver(
                dictionary: dictionary, store: store, db: db, userName: request.userName, systemTimeZone: systemTimeZone)
            var record = StoredRecord()
            for field in table.fields { if let value = field.defaultValue { record[field.name] = value } }
            let changes = try input(body, table, parameters, resolver, insert: true)
            record.merge(changes) { _, new in new }
            let sysID = changes["sys_id"] ?? NowTableService.makeSysID()
            record["sys_id"] = sysID
            let userID = try userSysID(request.userName, db) ?? ""
            try applyInsertRules(table, &record, given: changes, timestamp: timestamp, userSysID: userID, db)
            if try store.fetch(table, sysID: sysID, db) != nil {
                let name = record[table.displayField].flatMap { $0.isEmpty ? nil : $0 } ?? sysID
                throw TableAPIError.insertFailed(table: table.name, record: name)
            }
            if !parameters.suppressAutoSysField { record.stampCreation(by: request.userName, at: timestamp) }
            if (record["sys_mod_count"] ?? "").isEmpty { record["sys_mod_count"] = "0" }
            if (record["sys_class_name"] ?? "").isEmpty { record["sys_class_name"] = table.name }
            try store.insert(table, record, db)
            try checkAbortRules(
                table, sysID: sysID, record: record[table.displayField].flatMap { $0.isEmpty ? nil : $0 } ?? sysID,
                insert: true, db)
            let stored = try store.fetch(table, sysID: sysID, db) ?? record
            try audit.recordCreation(table, stored, user: request.userName, at: timestamp, db)
            return (
                sysID,
                try renderer(outputs, parameters, request, resolver).body(stored)
            )
        }
        var headers = jsonHeaders
        headers.add(name: "Location", value: "\(request.baseURL)/api/now/table/\(table.name)/\(sysID)")
        if let warning = unknownFieldsWarning(unknown) { headers.add(name: Self.unknownFieldsHeader, value: warning) }
        return NowHTTPResponse(statusCode: 201, headers: headers, body: responseBody(rendered, request))
    }

    func update(_ table: TableDefinition, _ sysID: String, _ request: TableAPIRequest, _ parameters: TableParameters)
        throws -> NowHTTPResponse
    {
        let body = try bodyObject(request.request, emptyAllowed: false)
        let outputs = outputs(parameters, table)
        let timestamp = Timestamp.string(now())
        var unknown: [String] = []
        let rendered: Data? = try database.write { db in
            guard let existing = try store.fetch(table, sysID: sysID, db) else { return nil }
            let target = storedTable(of: existing, in: table)
            unknown = unknownFields(body, target)
            let current = target.name == table.name ? existing : try store.fetch(target, sysID: sysID, db) ?? existing
            let resolver = ReferenceResolver(
                dictionary: dictionary, store: store, db: db, userName: request.userName, systemTimeZone: systemTimeZone)
            var changes = try input(body, table, parameters, resolver, insert: false)
            changes["sys_id"] = nil
            try applyUpdateRules(
                target, current: current, &changes, timestamp: timestamp, userName: request.userName, db)
            changes = changes.filter { name, value in
                guard let field = target.field(name) else { return false }
                return field.apiValue(field.storedValue(value) ?? .null) != current[name]
            }
            if !changes.isEmpty {
                if !parameters.suppressAutoSysField {
                    changes["sys_updated_on"] = timestamp
                    changes["sys_updated_by"] = request.userName
                    // The count can be written with sysparm_suppress_auto_sys_field: it stops at Int64.max.
                    let count = Int64(current["sys_mod_count"] ?? "") ?? 0
                    changes["sys_mod_count"] = String(count == .max ? count : count + 1)
                }
                _ = try store.update(target, sysID: sysID, changes, db)
                try audit.recordUpdate(
                    target, sysID: sysID,
                    changes: target.fields.compactMap { field in
                        changes[field.name].map {
                            (field.name, current[field.name] ?? "", field.apiValue(field.storedValue($0) ?? .null))
                        }
                    }, user: request.userName, at: timestamp,
                    checkpoint: Int(changes["sys_mod_count"] ?? current["sys_mod_count"] ?? "") ?? 0, db)
                let name = current[target.displayField].flatMap { $0.isEmpty ? nil : $0 } ?? sysID
                try checkAbortRules(target, sysID: sysID, record: name, insert: false, db)
                try applyAfterUpdateRules(
                    target, current: current, changes, timestamp: timestamp, userName: request.userName, db)
            }
            let stored = try store.fetch(table, sysID: sysID, db) ?? existing
            return try renderer(outputs, parameters, request, resolver).body(stored)
        }
        guard let rendered else { throw TableAPIError.noRecord }
        var headers = jsonHeaders
        if let warning = unknownFieldsWarning(unknown) { headers.add(name: Self.unknownFieldsHeader, value: warning) }
        return NowHTTPResponse(statusCode: 200, headers: headers, body: responseBody(rendered, request))
    }

    /// The response header naming the fields of a write's body that the table does not have, which were ignored.
    /// The platform ignores them without a word; the local instance says so here and in its log:
    /// `X-Nowflow-Warning: ignored fields: 'cpu_count' (cmdb_ci has no such field; cmdb_ci_server has one),
    /// 'colour' (cmdb_ci has no such field)`.
    static let unknownFieldsHeader = "X-Nowflow-Warning"

    /// The most tables named as having a field of an unknown field's name, and the most bytes of a name shown.
    private static let tablesNamed = 3
    private static let nameLength = 100

    /// The keys of `body` that are not fields of `table`, in the body's order, each logged with the tables of the
    /// dictionary that have a field of that name.
    private func unknownFields(_ body: JSONObject, _ table: TableDefinition) -> [String] {
        let keys = body.keys.filter { table.field($0) == nil }
        let notices = keys.map {
            "local instance: \(table.name): ignored field \(unknownFieldNote($0, shown: LogLine.escaped($0), table))"
        }
        for line in LogLine.bounded(notices, prefix: "local instance: \(table.name): ") { log(line) }
        return keys.map { unknownFieldNote($0, shown: Self.shortened($0), table) }
    }

    /// `'shown' (table has no such field; other, tables have one)`, for the field `name` shown as `shown`.
    private func unknownFieldNote(_ name: String, shown: String, _ table: TableDefinition) -> String {
        var note = "'\(shown)' (\(table.name) has no such field"
        let holders = dictionary.tableNames.filter { $0 != table.name && dictionary.table($0)?.field(name) != nil }
        if !holders.isEmpty {
            let named = holders.prefix(Self.tablesNamed).joined(separator: ", ")
            let others = holders.count > Self.tablesNamed ? " and \(holders.count - Self.tablesNamed) more" : ""
            note += "; \(named)\(others) \(holders.count == 1 ? "has" : "have") one"
        }
        return note + ")"
    }

    /// The header's value for `notes`, at most ``LogLine/maximumPerRequest`` of them; nil for none.
    private func unknownFieldsWarning(_ notes: [String]) -> String? {
        guard !notes.isEmpty else { return nil }
        var shown = notes.prefix(LogLine.maximumPerRequest).joined(separator: ", ")
        if notes.count > LogLine.maximumPerRequest { shown += " and \(notes.count - LogLine.maximumPerRequest) more" }
        return "ignored fields: " + shown
    }

    /// A field name fit for a header: control characters escaped as in the log, cut at ``nameLength`` bytes.
    private static func shortened(_ name: String) -> String {
        let escaped = LogLine.escaped(name)
        guard escaped.utf8.count > nameLength else { return escaped }
        var cut = ""
        for character in escaped {
            guard cut.utf8.count + String(character).utf8.count <= nameLength else { break }
            cut.append(character)
        }
        return cut + "..."
    }

    /// The table a record found through `table` is stored in: its class when that extends `table` (an incident
    /// read through `task`), else `table`.
    func storedTable(of record: StoredRecord, in table: TableDefinition) -> TableDefinition {
        guard let className = record["sys_class_name"], className != table.name,
            let stored = dictionary.table(className), dictionary.table(className, extends: table.name)
        else { return table }
        return stored
    }

    /// The body, or nothing with `X-no-response-body: true`.
    private func responseBody(_ body: Data, _ request: TableAPIRequest) -> Data {
        request.request.headers.value(named: "X-no-response-body")?.lowercased() == "true" ? Data() : body
    }

    /// The JSON object of a write's body (the first one when an array is sent, as the platform does); with
    /// `emptyAllowed` (an insert), no body and no Content-Type is an empty object.
    private func bodyObject(_ request: NowHTTPRequest, emptyAllowed: Bool) throws(TableAPIError) -> JSONObject {
        if emptyAllowed, request.body?.isEmpty ?? true, request.headers.value(named: "Content-Type") == nil {
            return [:]
        }
        try Self.requireJSON(request)
        guard let data = request.body, !data.isEmpty, let parsed = try? JSONValue(json: data) else {
            throw .invalidBody
        }
        switch parsed {
        case .object(let object): return object
        case .array(let elements):
            guard let object = elements.first?.object else { throw .invalidBody }
            return object
        default: throw .invalidBody
        }
    }

    /// Refuses a body that is not JSON: 400 without a `Content-Type`, 415 with another than `application/json`
    /// (the Table API's, Batch API's and CMDB Instance API's rule: a page of another site cannot send JSON without
    /// the browser asking first).
    static func requireJSON(_ request: NowHTTPRequest) throws(TableAPIError) {
        guard let contentType = request.headers.value(named: "Content-Type"), !contentType.isEmpty else {
            throw .missingContentType
        }
        let mediaType = contentType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        guard mediaType.lowercased() == "application/json" else { throw .unsupportedMediaType(contentType) }
    }

    /// The fields a write sets, as valid stored strings; invalid parts are ignored with a log line.
    private func input(
        _ body: JSONObject, _ table: TableDefinition, _ parameters: TableParameters, _ resolver: ReferenceResolver,
        insert: Bool
    ) throws -> StoredRecord {
        var changes = StoredRecord()
        var notices: [String] = []
        defer { for line in LogLine.bounded(notices, prefix: "local instance: \(table.name): ") { log(line) } }
        for (key, raw) in body {
            guard let field = table.field(key), var value = Self.string(raw) else { continue }
            if TableDefinition.systemFieldNames.contains(key) {
                if key == "sys_id" {
                    guard insert, !value.isEmpty else { continue }
                    guard value.utf8.count == 32, value.utf8.allSatisfy(Self.isHexDigit) else {
                        throw TableAPIError.invalidSysID(value)
                    }
                } else if !parameters.suppressAutoSysField {
                    continue
                }
            }
            if parameters.inputDisplayValue, !value.isEmpty {
                value = try resolver.storedValue(field, forDisplayValue: value)
            }
            if field.isPassword {
                changes[key] = value.isEmpty ? "" : PasswordHash.make(value, iterations: passwordIterations)
                continue
            }
            guard field.storedValue(value) != nil else {
                if field.type == .dateTime || field.type == .date {
                    throw TableAPIError.invalidDate(table: table.name, field: field, value: value)
                }
                notices.append(
                    "local instance: \(table.name): ignored value '\(value)' of \(key): not a valid \(field.type.name)")
                continue
            }
            changes[key] = value
        }
        return changes
    }

    /// The sys_id of the user called `userName`.
    func userSysID(_ userName: String, _ db: SQLiteConnection) throws -> String? {
        try store.user(named: userName, db)?.sysID
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (48...57).contains(byte) || (97...102).contains(byte) || (65...70).contains(byte)
    }

    /// A JSON value as the string the platform stores: a string as it is, a number as its JSON text (`2800`,
    /// `0.10`), a boolean as `true` or `false`, null as empty, and an object by its `value` (a reference as a read
    /// with display values gives it); nil for a value it cannot take (an array, an object without `value`).
    private static func string(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text): text
        case .number(let number): number.text
        case .bool(let flag): flag ? "true" : "false"
        case .null: ""
        case .object(let members): members["value"].flatMap(string)
        case .array: nil
        }
    }
}
