import Foundation
import NowData

/// The Table API over the store: GET (list and one record), POST, PUT, PATCH and DELETE with every
/// `sysparm_` parameter, on an authenticated request, as its ``AccessPolicy`` allows.
struct TableAPIHandler: Sendable {
    let dictionary: TableDictionary
    let store: RecordStore
    let database: SQLiteDatabase
    let translator: SQLQueryTranslator
    let now: @Sendable () -> Date
    let log: @Sendable (String) -> Void
    /// Who may read and write what.
    let policy: AccessPolicy
    /// Where deletions are noted.
    let deletions: DeletionLog
    /// The field-level history (`sys_audit`) each write adds to.
    let audit: AuditLog
    /// The work factor of the password hashes written (``LocalInstance/Options/passwordIterations``).
    var passwordIterations = LocalInstance.defaultPasswordIterations
    /// The zone of users without a `time_zone` (``LocalInstance/Options/systemTimeZone``).
    var systemTimeZone = TimeZone.gmt
    /// The keys rendered without `sysparm_fields`, by table: worked out once, not per request.
    private let defaultOutputs: [String: [OutputField]]

    init(
        dictionary: TableDictionary, store: RecordStore, database: SQLiteDatabase, translator: SQLQueryTranslator,
        now: @escaping @Sendable () -> Date, log: @escaping @Sendable (String) -> Void, administrator: String,
        deletions: DeletionLog
    ) {
        self.dictionary = dictionary
        self.store = store
        self.database = database
        self.translator = translator
        self.now = now
        self.log = log
        policy = AccessPolicy(dictionary: dictionary, store: store, database: database, administrator: administrator)
        self.deletions = deletions
        audit = AuditLog(dictionary: dictionary)
        defaultOutputs = Dictionary(
            dictionary.tableNames.compactMap { name in
                dictionary.table(name).map { (name, OutputField.resolve(nil, in: $0, dictionary: dictionary)) }
            },
            uniquingKeysWith: { first, _ in first })
    }

    /// The methods that write: refused on the read-only dictionary tables and on `sys_audit`.
    private static let writeMethods: Set<String> = ["POST", "PUT", "PATCH", "DELETE"]

    /// The response to a routed request of the user `access` is for.
    func handle(_ request: TableAPIRequest, as access: AccessPolicy.Access) throws(TableAPIError) -> NowHTTPResponse {
        var request = request
        request.userName = access.userName
        guard let table = dictionary.table(request.tableName) else { throw .invalidTable(request.tableName) }
        if TableDictionary.readOnlyTableNames.contains(table.name), Self.writeMethods.contains(request.method) {
            throw .readOnlyDictionary(table.name)
        }
        if table.name == TableDictionary.sysAudit.name, Self.writeMethods.contains(request.method) {
            throw .auditWrite
        }
        let parameters = try TableParameters(request.request.queryItems)
        do {
            if Self.writeMethods.contains(request.method) {
                try access.authorizeWrite(table, method: request.method)
                if dictionary.table(table.name, extends: TableDictionary.sysAttachment.name) {
                    try authorizeAttachmentWrite(table, request, access)
                }
            }
            switch (request.method, request.sysID) {
            case ("GET", nil): return try list(table, request, parameters, access)
            case ("GET", let sysID?): return try get(table, sysID, request, parameters, access)
            case ("POST", nil): return try create(table, request, parameters)
            case ("PUT", let sysID?), ("PATCH", let sysID?): return try update(table, sysID, request, parameters)
            case ("DELETE", let sysID?): return try delete(table, sysID, by: request.userName)
            default: throw TableAPIError.methodNotSupported(request.method)
            }
        } catch let error as TableAPIError {
            throw error
        } catch let error as SQLiteError where error.isInterrupted {
            log("local instance: \(request.method) \(request.request.path): a statement ran past its time budget")
            throw .executionTimeExceeded
        } catch {
            log("local instance: \(request.method) \(request.request.path) failed: \(error)")
            throw .internalFailure
        }
    }

    /// Runs a statement translated from a client's query. Every name in it is one the dictionary confirmed and
    /// every value is bound, so SQLite's generic `SQLITE_ERROR` there is SQLite refusing the statement for its size
    /// (an expression tree deeper than 1000, too many variables, a pattern too complex): a query too large to run,
    /// not a failure of the instance.
    private static func sized<Result>(_ run: () throws -> Result) throws -> Result {
        do {
            return try run()
        } catch let error as SQLiteError where error.code == .error {
            throw TableAPIError.queryTooLarge(error.message)
        }
    }

    private func list(
        _ table: TableDefinition, _ request: TableAPIRequest, _ parameters: TableParameters,
        _ access: AccessPolicy.Access
    ) throws -> NowHTTPResponse {
        let readable = try access.readCondition(table)
        let query = try encodedQuery(parameters)
        let outputs = outputs(parameters, table)
        let (rows, total, body) = try database.read { db in
            let resolver = ReferenceResolver(
                dictionary: dictionary, store: store, db: db, userName: request.userName, systemTimeZone: systemTimeZone)
            var translated = translator.computingDates(in: try resolver.timeZone()).translate(
                try filter(query, table, parameters, resolver), table: table.name)
            if let readable { translated.restrict(to: readable.clause, readable.parameters) }
            let notices = translated.warnings.map { "local instance: \(table.name): " + $0 }
            for line in LogLine.bounded(notices, prefix: "local instance: \(table.name): ") { log(line) }
            let total: Int? =
                parameters.noCount
                ? nil
                : try Self.sized { try store.count(table, where: translated.whereClause, translated.parameters, db) }
            let rows = try Self.sized {
                try store.selectRows(
                    table, where: translated.whereClause, translated.parameters, orderBy: translated.orderBy,
                    limit: parameters.limit, offset: parameters.offset, db)
            }
            let renderer = renderer(outputs, parameters, request, resolver)
            let body = try renderer.body(rows)
            return (rows.count, total, body)
        }
        if rows == 0, request.version == "v1" { throw TableAPIError.noRecord }
        var headers = jsonHeaders
        if let total { headers.add(name: "X-Total-Count", value: String(total)) }
        if !parameters.suppressPaginationHeader,
            let link = linkHeader(request, parameters, total: total, returned: rows)
        {
            headers.add(name: "Link", value: link)
        }
        return NowHTTPResponse(statusCode: 200, headers: headers, body: body)
    }

    private func get(
        _ table: TableDefinition, _ sysID: String, _ request: TableAPIRequest, _ parameters: TableParameters,
        _ access: AccessPolicy.Access
    ) throws -> NowHTTPResponse {
        let outputs = outputs(parameters, table)
        let body: Data? = try database.read { db in
            let rows = try store.fetchRows(table, sysID: sysID, db)
            guard rows.count > 0, try access.mayRead(table, record: rows.record(0)) else { return nil }
            let resolver = ReferenceResolver(
                dictionary: dictionary, store: store, db: db, userName: request.userName, systemTimeZone: systemTimeZone)
            return try renderer(outputs, parameters, request, resolver).body(rows, row: 0)
        }
        guard let body else { throw TableAPIError.noRecord }
        return NowHTTPResponse(statusCode: 200, headers: jsonHeaders, body: body)
    }

    private func delete(_ table: TableDefinition, _ sysID: String, by userName: String) throws -> NowHTTPResponse {
        let deleted: DeletionLog.Entry? = try database.write { db in
            guard let existing = try store.fetch(table, sysID: sysID, db) else { return nil }
            let stored = storedTable(of: existing, in: table)
            guard try store.delete(stored, sysID: sysID, db) else { return nil }
            let timestamp = Timestamp.string(now())
            try audit.recordDeletion(stored, sysID: sysID, user: userName, at: timestamp, db)
            return DeletionLog.Entry(
                table: stored.name, sysID: sysID, displayValue: existing[stored.displayField] ?? "",
                deletedOn: timestamp, deletedBy: userName)
        }
        guard let deleted else { throw TableAPIError.noRecord }
        deletions.add(deleted)
        return NowHTTPResponse(statusCode: 204)
    }

    /// The parsed `sysparm_query`, if any.
    private func encodedQuery(_ parameters: TableParameters) throws(TableAPIError) -> EncodedQuery? {
        guard let text = parameters.query, !text.isEmpty else { return nil }
        return try Self.parse(text)
    }

    /// `text` parsed; a `javascript:` value is refused.
    private static func parse(_ text: String) throws(TableAPIError) -> EncodedQuery {
        do {
            return try EncodedQuery.parse(text)
        } catch {
            throw .invalidQuery(error)
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
            let stored = try table.field(name).map { try resolver.storedValue($0, forDisplayValue: value) } ?? value
            conditions.append(name + "=" + EncodedQuery.escaped(stored))
        }
        return try Self.parse(conditions.joined(separator: "^"))
    }

    /// The keys to render for the request's `sysparm_fields`.
    func outputs(_ parameters: TableParameters, _ table: TableDefinition) -> [OutputField] {
        if parameters.fields == nil, let outputs = defaultOutputs[table.name] { return outputs }
        return OutputField.resolve(parameters.fields, in: table, dictionary: dictionary)
    }

    func renderer(
        _ outputs: [OutputField], _ parameters: TableParameters, _ request: TableAPIRequest,
        _ resolver: ReferenceResolver
    ) -> RecordRenderer {
        RecordRenderer(
            fields: outputs, displayValue: parameters.displayValue,
            excludeReferenceLink: parameters.excludeReferenceLink,
            linkBase: request.baseURL + "/api/now/" + (request.version.map { $0 + "/" } ?? ""), resolver: resolver)
    }

    var jsonHeaders: HTTPHeaders { ["Content-Type": "application/json;charset=UTF-8"] }

    /// `Link` with first, prev, next and last pages; nil on a single page or when it would be longer than
    /// ``maximumLinkLength``.
    private func linkHeader(_ request: TableAPIRequest, _ parameters: TableParameters, total: Int?, returned: Int)
        -> String?
    {
        let limit = parameters.limit
        let offset = parameters.offset
        // Both come from the request: their sum saturates rather than overflowing (no page starts past Int.max).
        let (sum, overflowed) = offset.addingReportingOverflow(limit)
        let nextOffset = overflowed ? Int.max : sum
        let hasNext = !overflowed && (total.map { nextOffset < $0 } ?? (returned == limit))
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
        if hasNext { links.append("<\(url(nextOffset))>;rel=\"next\"") }
        if let total {
            let last = total == 0 ? 0 : ((total - 1) / limit) * limit
            links.append("<\(url(max(last, 0)))>;rel=\"last\"")
        }
        let link = links.joined(separator: ",")
        return link.utf8.count <= Self.maximumLinkLength ? link : nil
    }

    /// The longest `Link` header sent, in bytes: each of its URLs repeats the request's query, and a longer header
    /// is more than clients (and the listener's connection memory) take. A longer one is left out; `X-Total-Count`
    /// and `sysparm_offset` still page through the records.
    static let maximumLinkLength = 16 * 1024

    private static let unreserved = CharacterSet(
        charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")

    private static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }
}
