import Foundation
import NowData

/// The Aggregate API, `GET /api/now/stats/{table}`: counts, sums, averages, minimums and maximums of the records
/// `sysparm_query` selects, over the whole selection or per group (`sysparm_group_by`), computed in SQL.
///
/// - `sysparm_count=true` counts; `sysparm_sum_fields`, `sysparm_avg_fields`, `sysparm_min_fields` and
///   `sysparm_max_fields` name fields, comma-separated.
/// - `sysparm_group_by=a,b` groups; `sysparm_having=aggregate^field^operator^value` (such as `count^sys_id^>^2`,
///   `^`-separated, several joined by `^`) keeps some groups; `sysparm_order_by=field` or `COUNT`, with `^DESC`,
///   orders them (by the group fields otherwise).
/// - `sysparm_display_value=true|all` adds each group value's `display_value` (a choice's label).
///
/// Without a group the answer is `{"result":{"stats":{"count":"12","sum":{"f":"30"},...}}}`; with one it is
/// `{"result":[{"stats":{...},"groupby_fields":[{"field":"f","value":"v"}]}, ...]}`. Every number is text.
///
/// It counts the records the user may read (``AccessPolicy/Access/readCondition(_:)``), and a password field is
/// neither grouped nor aggregated (403), in `sysparm_having` too; a condition on one is invalid, as in the Table
/// API.
struct AggregateAPIHandler: Sendable {
    let tables: TableAPIHandler

    /// The table of a path of the Aggregate API (`/api/now/stats/{table}`, `/api/now/v1/stats/{table}`), or nil.
    static func table(in path: String) -> String? {
        var parts = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard parts.count >= 4, parts[0] == "api", parts[1] == "now" else { return nil }
        parts.removeFirst(2)
        if parts[0] == "v1" { parts.removeFirst() }
        guard parts.count == 2, parts[0] == "stats" else { return nil }
        return parts[1]
    }

    private static let aggregates = ["avg", "min", "max", "sum"]
    private static let operators: Set<String> = ["=", "!=", ">", ">=", "<", "<="]

    /// The answer to a request of the user `access` is for, for the statistics of `tableName` (the query's date
    /// helpers are computed in the user's time zone).
    func handle(_ request: NowHTTPRequest, tableName: String, as access: AccessPolicy.Access) throws(TableAPIError)
        -> NowHTTPResponse
    {
        guard request.method.uppercased() == "GET" else { throw .methodNotSupported(request.method) }
        guard let table = tables.dictionary.table(tableName) else { throw .invalidTable(tableName) }
        func list(_ name: String) throws(TableAPIError) -> [FieldDefinition] {
            let names = (request.queryValue(name) ?? "").split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespaces)
            }.filter { !$0.isEmpty }
            return try names.map { field throws(TableAPIError) in
                guard let definition = try access.readableField(field, of: table) else {
                    throw Self.invalidField(field, table.name)
                }
                return definition
            }
        }
        let count = request.queryValue("sysparm_count")?.lowercased() == "true"
        var fields: [(aggregate: String, field: FieldDefinition)] = []
        for aggregate in Self.aggregates {
            fields += try list("sysparm_\(aggregate)_fields").map { (aggregate, $0) }
        }
        let groups = try list("sysparm_group_by")
        let withDisplay = DisplayValueMode(parameter: request.queryValue("sysparm_display_value")) != .actual

        var query: EncodedQuery?
        if let text = request.queryValue("sysparm_query"), !text.isEmpty {
            do {
                query = try EncodedQuery.parse(text)
            } catch {
                throw .invalidQuery(error)
            }
        }
        let zone: TimeZone
        let readable: (clause: String, parameters: [SQLValue])?
        do {
            readable = try access.readCondition(table)
            zone = try tables.database.read { db in
                try ReferenceResolver(
                    dictionary: tables.dictionary, store: tables.store, db: db, userName: access.userName,
                    systemTimeZone: tables.systemTimeZone
                ).timeZone()
            }
        } catch {
            tables.log("local instance: GET \(request.path) failed: \(error)")
            throw .internalFailure
        }
        var translated = query.map { tables.translator.computingDates(in: zone).translate($0, table: table.name) }
        let notices = (translated?.warnings ?? []).map { "local instance: \(table.name): " + $0 }
        for line in LogLine.bounded(notices, prefix: "local instance: \(table.name): ") { tables.log(line) }
        if let readable {
            var restricted = translated ?? TranslatedQuery(whereClause: "", parameters: [], orderBy: "", warnings: [])
            restricted.restrict(to: readable.clause, readable.parameters)
            translated = restricted
        }

        var columns = groups.map { Self.quoted($0.name) }
        columns.append("COUNT(*)")
        for (aggregate, field) in fields {
            let column = Self.quoted(field.name)
            columns.append(
                aggregate == "sum" || aggregate == "avg"
                    ? "\(aggregate.uppercased())(CAST(\(column) AS REAL))" : "\(aggregate.uppercased())(\(column))")
        }
        var sql = "SELECT " + columns.joined(separator: ", ") + " FROM " + Self.quoted(table.name)
        var parameters = translated?.parameters ?? []
        if let condition = translated?.whereClause, !condition.isEmpty { sql += " WHERE " + condition }
        if !groups.isEmpty {
            sql += " GROUP BY " + groups.map { Self.quoted($0.name) }.joined(separator: ", ")
            let (having, values) = try havingClause(request.queryValue("sysparm_having"), table, access)
            if !having.isEmpty {
                sql += " HAVING " + having
                parameters += values
            }
            sql += " ORDER BY " + (try orderClause(request.queryValue("sysparm_order_by"), groups))
        }
        let rows: [[SQLValue]]
        do {
            rows = try tables.database.read { db in try db.query(tables.store.withHierarchies(sql), parameters) }
        } catch {
            tables.log("local instance: GET \(request.path) failed: \(error)")
            throw .internalFailure
        }

        func stats(_ row: [SQLValue]) -> JSONValue {
            var object = JSONObject()
            if count { object["count"] = .string(FieldDefinition.apiValue(row[groups.count], form: .integer)) }
            for aggregate in Self.aggregates {
                var values = JSONObject()
                for (index, entry) in fields.enumerated() where entry.aggregate == aggregate {
                    let value = row[groups.count + 1 + index]
                    values[entry.field.name] = .string(
                        aggregate == "min" || aggregate == "max"
                            ? entry.field.apiValue(value) : FieldDefinition.apiValue(value, form: .other))
                }
                if !values.isEmpty { object[aggregate] = .object(values) }
            }
            return .object(object)
        }

        let result: JSONValue
        if groups.isEmpty {
            result = ["stats": rows.first.map(stats) ?? .object(JSONObject())]
        } else {
            result = .array(
                rows.map { row in
                    let groupFields: [JSONValue] = groups.enumerated().map { index, field in
                        let value = field.apiValue(row[index])
                        var entry: JSONObject = ["field": .string(field.name), "value": .string(value)]
                        if withDisplay { entry["display_value"] = .string(field.choiceLabel(for: value) ?? value) }
                        return .object(entry)
                    }
                    return ["stats": stats(row), "groupby_fields": .array(groupFields)]
                })
        }
        return NowHTTPResponse(
            statusCode: 200, headers: tables.jsonHeaders, body: JSONValue.object(["result": result]).jsonData())
    }

    /// `sysparm_having` as SQL: each `aggregate^field^operator^value` (four `^`-separated parts) becomes one
    /// condition, joined by AND.
    private func havingClause(_ text: String?, _ table: TableDefinition, _ access: AccessPolicy.Access)
        throws(TableAPIError) -> (String, [SQLValue])
    {
        guard let text, !text.isEmpty else { return ("", []) }
        let parts = text.split(separator: "^", omittingEmptySubsequences: false).map(String.init)
        guard parts.count % 4 == 0 else { throw Self.invalidHaving(text) }
        var conditions: [String] = []
        var values: [SQLValue] = []
        for start in stride(from: 0, to: parts.count, by: 4) {
            let aggregate = parts[start].lowercased()
            let operation = parts[start + 2]
            guard aggregate == "count" || Self.aggregates.contains(aggregate), Self.operators.contains(operation),
                let number = Double(parts[start + 3])
            else { throw Self.invalidHaving(text) }
            let expression: String
            if aggregate == "count" {
                expression = "COUNT(*)"
            } else {
                guard let field = try access.readableField(parts[start + 1], of: table) else {
                    throw Self.invalidField(parts[start + 1], table.name)
                }
                expression = "\(aggregate.uppercased())(CAST(\(Self.quoted(field.name)) AS REAL))"
            }
            conditions.append("\(expression) \(operation == "!=" ? "<>" : operation) ?")
            values.append(.real(number))
        }
        return (conditions.joined(separator: " AND "), values)
    }

    /// `sysparm_order_by` as SQL: group fields or `COUNT`, each optionally `^DESC`; the group fields by default.
    private func orderClause(_ text: String?, _ groups: [FieldDefinition]) throws(TableAPIError) -> String {
        let defaultOrder = groups.map { Self.quoted($0.name) }.joined(separator: ", ")
        guard let text, !text.isEmpty else { return defaultOrder }
        var terms: [String] = []
        for item in text.split(separator: ",") {
            let parts = item.split(separator: "^").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let name = parts.first else { continue }
            let direction = parts.count > 1 && parts[1].uppercased() == "DESC" ? " DESC" : " ASC"
            if name.uppercased() == "COUNT" {
                terms.append("COUNT(*)" + direction)
            } else if let field = groups.first(where: { $0.name == name }) {
                terms.append(Self.quoted(field.name) + direction)
            } else {
                throw TableAPIError(
                    status: 400, message: "Invalid sysparm_order_by",
                    detail: "'\(name)' is neither COUNT nor a sysparm_group_by field")
            }
        }
        return (terms + [defaultOrder]).joined(separator: ", ")
    }

    private static func invalidField(_ name: String, _ table: String) -> TableAPIError {
        TableAPIError(status: 400, message: "Invalid aggregate field", detail: "\(table) has no field '\(name)'")
    }

    private static func invalidHaving(_ text: String) -> TableAPIError {
        TableAPIError(
            status: 400, message: "Invalid sysparm_having",
            detail: "'\(text)' is not aggregate^field^operator^number (aggregate: count, sum, avg, min or max; "
                + "operator: =, !=, >, >=, < or <=)")
    }

    private static func quoted(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
