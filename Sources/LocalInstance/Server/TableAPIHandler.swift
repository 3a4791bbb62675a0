import Foundation
import NowData

/// The Table API over the store: GET (list and one record), POST, PUT, PATCH and DELETE with every
/// `sysparm_` parameter, on an authenticated request.
struct TableAPIHandler: Sendable {
    let dictionary: TableDictionary
    let store: RecordStore
    let database: SQLiteDatabase
    let translator: SQLQueryTranslator
    let now: @Sendable () -> Date
    let log: @Sendable (String) -> Void

    /// The response to a routed, authenticated request.
    func handle(_ request: TableRequest) throws(TableAPIError) -> NowHTTPResponse {
        guard let table = dictionary.table(request.tableName) else { throw .invalidTable(request.tableName) }
        let parameters = try TableParameters(request.request.queryItems)
        do {
            switch (request.method, request.sysID) {
            case ("GET", nil): return try list(table, request, parameters)
            case ("GET", let sysID?): return try get(table, sysID, request, parameters)
            case ("POST", nil): return try create(table, request, parameters)
            case ("PUT", let sysID?), ("PATCH", let sysID?): return try update(table, sysID, request, parameters)
            case ("DELETE", let sysID?): return try delete(table, sysID)
            default: throw TableAPIError.methodNotSupported(request.method)
            }
        } catch let error as TableAPIError {
            throw error
        } catch {
            log("local instance: \(request.method) \(request.request.path) failed: \(error)")
            throw .internalFailure
        }
    }

    private func list(_ table: TableDefinition, _ request: TableRequest, _ parameters: TableParameters) throws
        -> NowHTTPResponse
    {
        let query = try encodedQuery(table, parameters)
        let outputs = OutputField.resolve(parameters.fields, in: table, dictionary: dictionary)
        let (rows, total, body) = try database.read { db in
            let resolver = ReferenceResolver(dictionary: dictionary, store: store, db: db)
            let translated = translator.translate(try filter(query, table, parameters, resolver), table: table.name)
            for warning in translated.warnings { log("local instance: \(table.name): \(redacted(warning, table))") }
            let total: Int? =
                parameters.noCount
                ? nil
                : try store.count(table, where: translated.whereClause, translated.parameters, db)
            let rows = try store.select(
                table, where: translated.whereClause, translated.parameters, orderBy: translated.orderBy,
                limit: parameters.limit, offset: parameters.offset, db)
            let renderer = renderer(outputs, parameters, request, resolver)
            let body = try renderer.body(rows)
            return (rows.count, total, body)
        }
        if rows == 0, request.version == "v1" { throw TableAPIError.noRecord }
        var headers = jsonHeaders
        if let total { headers["X-Total-Count"] = String(total) }
        if !parameters.suppressPaginationHeader,
            let link = linkHeader(request, parameters, total: total, returned: rows)
        {
            headers["Link"] = link
        }
        return NowHTTPResponse(statusCode: 200, headers: headers, body: body)
    }

    private func get(_ table: TableDefinition, _ sysID: String, _ request: TableRequest, _ parameters: TableParameters)
        throws -> NowHTTPResponse
    {
        let outputs = OutputField.resolve(parameters.fields, in: table, dictionary: dictionary)
        let body: Data? = try database.read { db in
            guard let record = try store.fetch(table, sysID: sysID, db) else { return nil }
            let resolver = ReferenceResolver(dictionary: dictionary, store: store, db: db)
            return try renderer(outputs, parameters, request, resolver).body(record)
        }
        guard let body else { throw TableAPIError.noRecord }
        return NowHTTPResponse(statusCode: 200, headers: jsonHeaders, body: body)
    }

    private func delete(_ table: TableDefinition, _ sysID: String) throws -> NowHTTPResponse {
        let deleted = try database.write { db in
            guard let existing = try store.fetch(table, sysID: sysID, db) else { return false }
            return try store.delete(storedTable(of: existing, in: table), sysID: sysID, db)
        }
        guard deleted else { throw TableAPIError.noRecord }
        return NowHTTPResponse(statusCode: 204)
    }

    /// A query warning fit for the log: one about a password field does not repeat its value.
    private func redacted(_ warning: String, _ table: TableDefinition) -> String {
        guard let field = table.fields.first(where: { $0.isPassword && warning.contains($0.name) }) else {
            return warning
        }
        return "ignored a condition on the password field '\(field.name)'"
    }

    /// The parsed `sysparm_query`; a `javascript:` value is refused.
    private func encodedQuery(_ table: TableDefinition, _ parameters: TableParameters) throws -> EncodedQuery? {
        guard let text = parameters.query, !text.isEmpty else { return nil }
        do {
            return try EncodedQuery.parse(text)
        } catch {
            throw TableAPIError.invalidQuery(error)
        }
    }

    /// The query to run: `sysparm_query`, or else the name=value pairs (display values accepted for reference
    /// and choice fields).
    private func filter(
        _ query: EncodedQuery?, _ table: TableDefinition, _ parameters: TableParameters, _ resolver: ReferenceResolver
    ) throws -> EncodedQuery {
        if let query {
            if !parameters.filters.isEmpty {
                log("local instance: \(table.name): name=value filters ignored because sysparm_query is given")
            }
            return query
        }
        var conditions: [String] = []
        for (name, value) in parameters.filters {
            var stored = value
            if let field = table.field(name) {
                if case .reference(let target) = field.type {
                    stored = try resolver.sysID(in: target, forDisplayValue: value) ?? value
                } else if !field.choices.isEmpty {
                    stored = field.choiceValue(forLabel: value) ?? value
                }
            }
            conditions.append(name + "=" + stored.replacingOccurrences(of: "^", with: "^^"))
        }
        do {
            return try EncodedQuery.parse(conditions.joined(separator: "^"))
        } catch {
            throw TableAPIError.invalidQuery(error)
        }
    }

    func renderer(
        _ outputs: [OutputField], _ parameters: TableParameters, _ request: TableRequest, _ resolver: ReferenceResolver
    ) -> RecordRenderer {
        RecordRenderer(
            fields: outputs, displayValue: parameters.displayValue,
            excludeReferenceLink: parameters.excludeReferenceLink, baseURL: request.baseURL, resolver: resolver)
    }

    var jsonHeaders: HTTPHeaders { ["Content-Type": "application/json;charset=UTF-8"] }

    /// `Link` with first, prev, next and last pages; nil on a single page.
    private func linkHeader(_ request: TableRequest, _ parameters: TableParameters, total: Int?, returned: Int)
        -> String?
    {
        let limit = parameters.limit
        let offset = parameters.offset
        let hasNext = total.map { offset + limit < $0 } ?? (returned == limit)
        if offset == 0, !hasNext { return nil }
        let others = request.request.queryItems.filter { $0.name != "sysparm_offset" && $0.name != "sysparm_limit" }
        func url(_ pageOffset: Int) -> String {
            var components = URLComponents()
            components.percentEncodedQueryItems =
                others.map { URLQueryItem(name: Self.encode($0.name), value: $0.value.map(Self.encode)) } + [
                    URLQueryItem(name: "sysparm_limit", value: String(limit)),
                    URLQueryItem(name: "sysparm_offset", value: String(pageOffset)),
                ]
            return request.baseURL + request.request.path + "?" + (components.percentEncodedQuery ?? "")
        }
        var links = ["<\(url(0))>;rel=\"first\""]
        if offset > 0 { links.append("<\(url(max(0, offset - limit)))>;rel=\"prev\"") }
        if hasNext { links.append("<\(url(offset + limit))>;rel=\"next\"") }
        if let total {
            let last = total == 0 ? 0 : ((total - 1) / limit) * limit
            links.append("<\(url(max(last, 0)))>;rel=\"last\"")
        }
        return links.joined(separator: ",")
    }

    private static let unreserved = CharacterSet(
        charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")

    private static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }
}
