import Foundation
import NowData

/// The Import Set API (`/api/now[/v1]/import/{staging_table}...`): rows loaded into an import set table (a table
/// extending `sys_import_set_row`) and transformed at once, through the table's ``TransformMap``s, into their
/// target tables:
///
/// - `POST /import/{staging_table}` with one row's `{"column": "value"}`: 201 with `{"import_set": "ISET0010001",
///   "staging_table": ..., "result": [{"transform_map", "table", "display_name", "display_value", "record_link",
///   "status", "sys_id"}]}`, one result per transform map; `status` is `inserted`, `updated`, `ignored` (the
///   coalesce found a record and no value changed: `status_message` says so) or `error` (with `error_message`, the
///   target table's refusal). Rows posted one by one the same day go into the table's one open synchronous import
///   set, as on the platform.
/// - `POST /import/{staging_table}/insertMultiple` with `{"records": [{...}, ...]}` (columns by name or label): one
///   new import set, transformed at once (the platform transforms it later unless told otherwise), 201 with
///   `{"import_set_id", "multi_import_set_id"}`; each row's outcome is on the row (`sys_import_state`,
///   `sys_target_sys_id`...).
/// - `GET /import/{staging_table}/{sys_id}`: the row's outcome, as the POST answered it.
///
/// Loading takes the staging table's write role (`import_transformer`, or `admin`) and reading its read role,
/// through the same access decision as the Table API; the transform writes the target as the same user, with the
/// target table's roles, rules and numbering. Not modelled: transform scripts, field map scripts, choice actions,
/// data sources and the Robust Transform Engine.
struct ImportSetAPIHandler: Sendable {
    let tables: TableAPIHandler
    /// The transform maps rows go through: the demo data's (a test may declare others).
    var maps = TransformMap.all

    /// A routed path of the API.
    struct Route: Equatable {
        var table: String
        var sysID: String?
        var multiple = false
    }

    /// The route of a path of the Import Set API, or nil.
    static func route(_ path: String) -> Route? {
        var parts = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard parts.count >= 4, parts[0] == "api", parts[1] == "now" else { return nil }
        parts.removeFirst(2)
        if parts[0] == "v1" || parts[0] == "v2" { parts.removeFirst() }
        guard (2...3).contains(parts.count), parts[0] == "import" else { return nil }
        var route = Route(table: parts[1])
        if parts.count == 3 {
            if parts[2] == "insertMultiple" { route.multiple = true } else { route.sysID = parts[2] }
        }
        return route
    }

    /// The answer to a request of the user `access` is for, on `route`.
    func handle(_ request: NowHTTPRequest, route: Route, as access: AccessPolicy.Access) throws(TableAPIError)
        -> NowHTTPResponse
    {
        let method = request.method.uppercased()
        guard let staging = tables.dictionary.table(route.table),
            tables.dictionary.table(staging.name, extends: TableDictionary.sysImportSetRow.name),
            staging.name != TableDictionary.sysImportSetRow.name
        else {
            throw TableAPIError(
                status: 400, message: "Invalid staging table \(route.table)",
                detail: "'\(route.table)' is not an import set table (a table extending sys_import_set_row)")
        }
        do {
            switch (method, route.sysID, route.multiple) {
            case ("POST", nil, false): return try insert(request, staging, access)
            case ("POST", nil, true): return try insertMultiple(request, staging, access)
            case ("GET", let sysID?, false): return try row(request, staging, sysID, access)
            default: throw TableAPIError.methodNotSupported(method)
            }
        } catch let error as TableAPIError {
            throw error
        } catch {
            tables.log("local instance: \(method) \(request.path) failed: \(error)")
            throw .internalFailure
        }
    }

    // MARK: - Loading

    private func insert(_ request: NowHTTPRequest, _ staging: TableDefinition, _ access: AccessPolicy.Access) throws
        -> NowHTTPResponse
    {
        try access.authorizeWrite(staging, method: "POST")
        guard case .object(let body) = try Self.body(request) else { throw TableAPIError.invalidBody }
        let set = try openImportSet(staging, request, access)
        let results = try load(columns(body, staging), into: staging, set: set.sysID, request, access)
        let answer: JSONValue = [
            "import_set": .string(set.number), "staging_table": .string(staging.name), "result": .array(results),
        ]
        return NowHTTPResponse(statusCode: 201, headers: tables.jsonHeaders, body: answer.jsonData())
    }

    private func insertMultiple(
        _ request: NowHTTPRequest, _ staging: TableDefinition, _ access: AccessPolicy.Access
    ) throws -> NowHTTPResponse {
        try access.authorizeWrite(staging, method: "POST")
        guard case .array(let records) = try Self.body(request).object?["records"] ?? .null,
            records.allSatisfy({ $0.object != nil })
        else {
            throw TableAPIError(
                status: 400, message: "Invalid records", detail: "give 'records', an array of objects, one per row")
        }
        let multi = try create(
            "sys_multi_import_set", ["table_name": .string(staging.name)], request, access)
        let set = try create(
            "sys_import_set",
            [
                "table_name": .string(staging.name), "mode": "synchronous", "state": "loading",
                "multi_import_set": .string(multi.sysID),
            ], request, access)
        for record in records {
            _ = try load(columns(record.object ?? [:], staging), into: staging, set: set.sysID, request, access)
        }
        _ = try tables.subRequest(
            "PATCH", "/api/now/table/sys_import_set/\(set.sysID)", for: request, as: access,
            body: ["state": "processed"])
        let answer: JSONValue = ["import_set_id": .string(set.sysID), "multi_import_set_id": .string(multi.sysID)]
        return NowHTTPResponse(statusCode: 201, headers: tables.jsonHeaders, body: answer.jsonData())
    }

    /// The table's open synchronous import set of today (the platform closes them each night), or a new one.
    private func openImportSet(_ staging: TableDefinition, _ request: NowHTTPRequest, _ access: AccessPolicy.Access)
        throws -> (sysID: String, number: String)
    {
        let today = String(Timestamp.string(tables.now()).prefix(10))
        guard let sets = tables.dictionary.table("sys_import_set") else {
            throw TableAPIError.invalidTable("sys_import_set")
        }
        let open = try tables.database.read { db in
            try tables.store.select(
                sets,
                where: "\"table_name\" = ? AND \"mode\" = 'synchronous' AND \"state\" = 'loading' AND "
                    + "\"multi_import_set\" IS NULL AND substr(\"sys_created_on\", 1, 10) = ?",
                [.text(staging.name), .text(today)], orderBy: "\"sys_created_on\"", limit: 1, offset: 0, db
            ).first
        }
        if let open, let sysID = open["sys_id"], let number = open["number"] { return (sysID, number) }
        return try create(
            "sys_import_set", ["table_name": .string(staging.name), "mode": "synchronous", "state": "loading"],
            request, access)
    }

    /// Creates a record through the Table API: its sys_id and number (or sys_id).
    private func create(
        _ table: String, _ values: JSONObject, _ request: NowHTTPRequest, _ access: AccessPolicy.Access
    ) throws -> (sysID: String, number: String) {
        let created = try TableAPIHandler.result(
            of: try tables.subRequest(
                "POST", "/api/now/table/\(table)", [URLQueryItem(name: "sysparm_fields", value: "sys_id,number")],
                for: request, as: access, body: .object(values)))
        let sysID = created.object?["sys_id"]?.string ?? ""
        return (sysID, created.object?["number"]?.string.flatMap { $0.isEmpty ? nil : $0 } ?? sysID)
    }

    /// A row's values by staging column: the body's members named by a column's name or label, as text.
    private func columns(_ body: JSONObject, _ staging: TableDefinition) -> [String: String] {
        let own = Set(TableDictionary.sysImportSetRow.fields.map(\.name))
        var row: [String: String] = [:]
        for (key, value) in body {
            guard let field = staging.field(key) ?? staging.fields.first(where: { $0.label == key }),
                !own.contains(field.name)
            else { continue }
            row[field.name] =
                switch value {
                case .string(let text): text
                case .number(let number): number.text
                case .bool(let flag): flag ? "true" : "false"
                case .null: ""
                case .array, .object: String(decoding: value.jsonData(), as: UTF8.self)
                }
        }
        return row
    }

    /// Inserts the row into the staging table, transforms it through each of the table's maps and keeps the last
    /// outcome on the row; the results as the API answers them.
    private func load(
        _ row: [String: String], into staging: TableDefinition, set: String, _ request: NowHTTPRequest,
        _ access: AccessPolicy.Access
    ) throws -> [JSONValue] {
        let count = try tables.database.read { db in
            try tables.store.count(staging, where: "\"sys_import_set\" = ?", [.text(set)], db)
        }
        var values = JSONObject(row.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.string($0.value)) })
        values["sys_import_set"] = .string(set)
        values["sys_import_row"] = .string(String(count))
        let stagingRow = try create(staging.name, values, request, access)
        var results: [JSONValue] = []
        for map in maps where map.sourceTable == staging.name {
            let outcome = try transform(row, through: map, request, access)
            results.append(outcome.json(map, base: Self.baseURL(request)))
            _ = try tables.subRequest(
                "PATCH", "/api/now/table/\(staging.name)/\(stagingRow.sysID)", for: request, as: access,
                body: [
                    "sys_import_state": .string(outcome.status), "sys_import_state_comment": .string(outcome.message),
                    "sys_transform_map": .string(map.sysID), "sys_target_table": .string(map.targetTable),
                    "sys_target_sys_id": .string(outcome.sysID),
                ])
        }
        return results
    }

    /// What a transform did to its target.
    private struct Outcome {
        var status: String
        var sysID = ""
        var displayField = ""
        var displayValue = ""
        /// Why a row was ignored, or the error.
        var message = ""

        func json(_ map: TransformMap, base: String) -> JSONValue {
            var result: JSONObject = ["transform_map": .string(map.name), "table": .string(map.targetTable)]
            guard status != "error" else {
                result["status"] = "error"
                result["error_message"] = .string(message)
                return .object(result)
            }
            result["display_name"] = .string(displayField)
            result["display_value"] = .string(displayValue)
            result["record_link"] = .string("\(base)/api/now/table/\(map.targetTable)/\(sysID)")
            result["status"] = .string(status)
            result["sys_id"] = .string(sysID)
            if !message.isEmpty { result["status_message"] = .string(message) }
            return .object(result)
        }
    }

    /// Writes the row's mapped values to the target: an update of the record the coalesce fields find (ignored
    /// when nothing would change), else an insert; a refusal of the target table is the row's error.
    private func transform(
        _ row: [String: String], through map: TransformMap, _ request: NowHTTPRequest, _ access: AccessPolicy.Access
    ) throws -> Outcome {
        guard let target = tables.dictionary.table(map.targetTable) else {
            return Outcome(status: "error", message: "Invalid table \(map.targetTable)")
        }
        var values = JSONObject()
        for entry in map.fieldMap { if let value = row[entry.source] { values[entry.target] = .string(value) } }
        let display = target.displayField
        let fields = URLQueryItem(name: "sysparm_fields", value: "sys_id,\(display)")
        let path = "/api/now/table/\(target.name)"
        do {
            guard let match = try coalesced(row, map, target, request, access) else {
                let created = try tables.subRequest(
                    "POST", path, [fields, Self.inputDisplayValue], for: request, as: access, body: .object(values))
                return try outcome("inserted", TableAPIHandler.result(of: created), display)
            }
            let read = URLQueryItem(name: "sysparm_fields", value: (["sys_id", display] + values.keys).joined(separator: ","))
            let current = try TableAPIHandler.result(
                of: try tables.subRequest(
                    "GET", "\(path)/\(match)", FieldValuePairs.tableParameters + [read], for: request, as: access))
            let changed = values.contains { name, value in
                let field = current.object?[name].flatMap(NowRecord.Field.init(member:))
                return value.string != field?.value && value.string != field?.displayValue
            }
            guard changed else {
                var ignored = Outcome(status: "ignored", sysID: match, displayField: display)
                ignored.displayValue =
                    current.object?[display].flatMap(NowRecord.Field.init(member:))?.displayValue ?? ""
                ignored.message = "No field values changed"
                return ignored
            }
            let updated = try tables.subRequest(
                "PATCH", "\(path)/\(match)", [fields, Self.inputDisplayValue], for: request, as: access,
                body: .object(values))
            return try outcome("updated", TableAPIHandler.result(of: updated), display)
        } catch let error as TableAPIError {
            return Outcome(status: "error", message: error.message + (error.detail.map { ": \($0)" } ?? ""))
        }
    }

    private static let inputDisplayValue = URLQueryItem(name: "sysparm_input_display_value", value: "true")

    private func outcome(_ status: String, _ record: JSONValue, _ display: String) throws -> Outcome {
        Outcome(
            status: status, sysID: record.object?["sys_id"]?.string ?? "", displayField: display,
            displayValue: record.object?[display]?.string ?? "")
    }

    /// The sys_id of the target record whose coalesce fields hold the row's values; nil when the map has no
    /// coalesce field, the row leaves one empty, or no record the user may read matches.
    ///
    /// The lookup is a Table API read as the user (``coalesceQuery(_:_:)``), so it goes through the same access
    /// decision and query path as any list: a record the user may not read is not found (the row inserts, as the
    /// user, what the target's roles allow), a secret or unknown field is the row's error, and the match is the Table API's `=`
    /// (a string's case ignored, as the platform's coalesce does unless its entry is made case sensitive).
    private func coalesced(
        _ row: [String: String], _ map: TransformMap, _ target: TableDefinition, _ request: NowHTTPRequest,
        _ access: AccessPolicy.Access
    ) throws -> String? {
        guard let query = Self.coalesceQuery(row, map) else { return nil }
        // The Table API ignores a condition on a secret or unknown field, as the platform does: a coalesce on one
        // would match any record, so it is refused first.
        for key in map.fieldMap where key.coalesce {
            guard try access.readableField(key.target, of: target) != nil else {
                throw TableAPIError(
                    status: 400, message: "Invalid coalesce field",
                    detail: "\(target.name) has no field '\(key.target)' (transform map \(map.name))")
            }
        }
        let found = try TableAPIHandler.result(
            of: try tables.subRequest(
                "GET", "/api/now/table/\(target.name)",
                [
                    URLQueryItem(name: "sysparm_query", value: query.text),
                    URLQueryItem(name: "sysparm_fields", value: "sys_id"),
                    URLQueryItem(name: "sysparm_limit", value: "1"),
                ], for: request, as: access))
        return found.array?.first?.object?["sys_id"]?.string
    }

    /// The query that finds the target record of `row` through `map`'s coalesce entries: each target field equal to
    /// the row's value, taken literally (a `^` in a value is written `^^`, never a join), oldest record first;
    /// nil when the map has no coalesce entry or the row leaves one empty.
    static func coalesceQuery(_ row: [String: String], _ map: TransformMap) -> EncodedQuery? {
        let keys = map.fieldMap.filter(\.coalesce)
        guard !keys.isEmpty, keys.allSatisfy({ !(row[$0.source] ?? "").isEmpty }) else { return nil }
        return EncodedQuery(
            matchingAll: keys.map { .init(field: $0.target, op: .equals, value: row[$0.source] ?? "") },
            ordering: [.init(field: "sys_created_on", descending: false)])
    }

    // MARK: - Reading

    /// `GET /import/{staging_table}/{sys_id}`: the row's import set and the outcome of its transform.
    private func row(
        _ request: NowHTTPRequest, _ staging: TableDefinition, _ sysID: String, _ access: AccessPolicy.Access
    ) throws -> NowHTTPResponse {
        let row = try TableAPIHandler.result(
            of: try tables.subRequest(
                "GET", "/api/now/table/\(staging.name)/\(sysID)",
                [URLQueryItem(name: "sysparm_exclude_reference_link", value: "true")], for: request, as: access))
        func value(_ name: String) -> String { row.object?[name]?.string ?? "" }
        let set = try tables.database.read { db in
            try tables.dictionary.table("sys_import_set").flatMap { sets in
                try tables.store.fetch(sets, sysID: value("sys_import_set"), db)
            }
        }
        var results: [JSONValue] = []
        if let map = maps.first(where: { $0.sysID == value("sys_transform_map") }),
            let target = tables.dictionary.table(map.targetTable)
        {
            var outcome = Outcome(
                status: value("sys_import_state"), sysID: value("sys_target_sys_id"), displayField: target.displayField,
                message: value("sys_import_state_comment"))
            outcome.displayValue = try targetDisplayValue(target, outcome.sysID, request, access)
            results.append(outcome.json(map, base: Self.baseURL(request)))
        }
        let answer: JSONValue = [
            "import_set": .string(set?["number"] ?? ""), "staging_table": .string(staging.name),
            "result": .array(results),
        ]
        return NowHTTPResponse(statusCode: 200, headers: tables.jsonHeaders, body: answer.jsonData())
    }

    /// The display field's value of the target record `sysID`, read as the user: empty when the user may not read
    /// it (or it is gone), so that a row's outcome tells no more of its target than the Table API would.
    private func targetDisplayValue(
        _ target: TableDefinition, _ sysID: String, _ request: NowHTTPRequest, _ access: AccessPolicy.Access
    ) throws -> String {
        guard !sysID.isEmpty else { return "" }
        do {
            let record = try TableAPIHandler.result(
                of: try tables.subRequest(
                    "GET", "/api/now/table/\(target.name)/\(sysID)",
                    [URLQueryItem(name: "sysparm_fields", value: target.displayField)], for: request, as: access))
            return record.object?[target.displayField]?.string ?? ""
        } catch let error as TableAPIError where error.status == 404 || error.status == 403 {
            return ""
        }
    }

    // MARK: - Support

    /// The request's JSON body; refused as the Table API refuses one that is not `application/json`.
    private static func body(_ request: NowHTTPRequest) throws(TableAPIError) -> JSONValue {
        try TableAPIHandler.requireJSON(request)
        guard let body = try? JSONValue(json: request.body ?? Data()), body.object != nil else {
            throw TableAPIError.invalidBody
        }
        return body
    }

    /// `http://<Host>` (or `http://localhost`), for the record links.
    private static func baseURL(_ request: NowHTTPRequest) -> String {
        "http://" + (request.headers.value(named: "Host").flatMap { $0.isEmpty ? nil : $0 } ?? "localhost")
    }
}
