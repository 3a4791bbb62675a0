import Foundation
import NowData

/// The steps that talk to the instance: query, get, create, update, delete.
extension JobExecution {
    /// The most records one page of a query asks for when the step gives no `page_size`.
    static let defaultPageSize = 100

    func perform(_ step: QueryStep, label: String, scope: Scope) async throws(StepFailure) -> (Value, String) {
        let table = try text(step.table, "table", scope: scope)
        var query = try encodedQuery(step.filter, scope: scope)
        if let orderBy = step.orderBy {
            query = try ordered(query, by: orderBy, descending: false, scope: scope)
        }
        if let orderBy = step.orderByDescending {
            query = try ordered(query, by: orderBy, descending: true, scope: scope)
        }
        let pageSize = step.pageSize ?? min(step.limit ?? Self.defaultPageSize, Self.defaultPageSize)
        let configuration = FetchConfiguration(
            filter: query.isEmpty ? nil : Filter(query: query), limit: pageSize,
            readConfiguration: readConfiguration(step.fields, step.read))
        let paginator = service.paginator(from: table, configuration: configuration)
        paginator.maxRecords = step.limit
        var records: [Value] = []
        try await calling {
            while let page = try await paginator.next() {
                let items = try Self.resultList(page).map(shown)
                records += items
                let pages = paginator.numberOfPages
                let announced = pages == Int.max ? nil : max(records.count, min(pages * pageSize, Int.max / 2))
                options.onEvent(.paging(label: label, fetched: records.count, expected: step.limit ?? announced))
                if items.isEmpty || records.count >= (step.limit ?? Int.max) { break }
            }
        }
        if let limit = step.limit, records.count > limit { records.removeLast(records.count - limit) }
        let summary = "\(records.count) record\(records.count == 1 ? "" : "s") from \(table)"
        return (.map(["records": .list(records), "count": .int(records.count)]), summary)
    }

    func perform(_ step: GetStep, scope: Scope) async throws(StepFailure) -> (Value, String) {
        let table = try text(step.table, "table", scope: scope)
        let sysID = try text(step.sysID, "sys_id", scope: scope)
        if let record = dryRunRecords[sysID] {
            return (.map(["record": .map(record), "sys_id": .string(sysID)]), "\(table) \(sysID) (dry run)")
        }
        let configuration = readConfiguration(step.fields, step.read)
        let record = try await calling {
            shown(try Self.result(try await service.record(with: sysID, from: table, configuration: configuration)))
        }
        return (.map(["record": record, "sys_id": .string(sysID)]), "\(table) \(sysID)")
    }

    func perform(_ step: CreateStep, label: String, scope: Scope) async throws(StepFailure) -> (Value, String) {
        let table = try text(step.table, "table", scope: scope)
        let fields = try fieldValues(step.fields, scope: scope)
        let configuration = readConfiguration([], step.settings.read)
        let writeOptions = writeOptions(step.settings)
        if options.dryRun {
            let sysID = "dry-run-\(dryRunRecords.count + 1)"
            var record = try await dryRunShape(of: table)
            for (name, value) in fields { record[name] = shown(.string(value.stringValue)) }
            record["sys_id"] = .string(sysID)
            dryRunRecords[sysID] = record
            plan(
                label, "POST", path: "/api/now/table/\(table)",
                items: writeOptions.queryItems + configuration.queryItems, fields: fields)
            return (
                .map(["record": .map(record), "sys_id": .string(sysID)]), "would create a record in \(table) (dry run)"
            )
        }
        // The sys_id is chosen before sending, so that a create whose answer never comes can still be reported.
        var sending = fields
        let assigned = fields["sys_id"]?.stringValue ?? NowTableService.makeSysID()
        sending["sys_id"] = .string(assigned)
        let record: Value
        do {
            record = try await calling {
                try Self.result(
                    try await service.createRecord(
                        with: sending, in: table, writeOptions: writeOptions, configuration: configuration))
            }
        } catch {
            if Self.mayHaveCreated(error.cause) {
                touched.append(TouchedRecord(action: .possiblyCreated, table: table, sysID: assigned, step: label))
            }
            throw error
        }
        let sysID = Self.sysID(of: record)
        touched.append(TouchedRecord(action: .created, table: table, sysID: sysID, step: label))
        return (.map(["record": shown(record), "sys_id": .string(sysID)]), "created \(table) \(sysID)")
    }

    func perform(_ step: UpdateStep, label: String, scope: Scope) async throws(StepFailure) -> (Value, String) {
        let table = try text(step.table, "table", scope: scope)
        let fields = try fieldValues(step.fields, scope: scope)
        let configuration = readConfiguration([], step.settings.read)
        let writeOptions = writeOptions(step.settings)
        let items = writeOptions.queryItems + configuration.queryItems
        switch step.target {
        case .sysID(let template):
            let sysID = try text(template, "sys_id", scope: scope)
            if options.dryRun {
                plan(label, "PATCH", path: "/api/now/table/\(table)/\(sysID)", items: items, fields: fields)
                var record = dryRunRecords[sysID] ?? ["sys_id": .string(sysID)]
                for (name, value) in fields { record[name] = shown(.string(value.stringValue)) }
                if dryRunRecords[sysID] != nil { dryRunRecords[sysID] = record }
                return (
                    .map(["record": .map(record), "sys_id": .string(sysID), "count": .int(1)]),
                    "would update \(table) \(sysID) (dry run)"
                )
            }
            let record = try await update(table, sysID, fields, writeOptions, configuration, label: label)
            return (.map(["record": record, "sys_id": .string(sysID), "count": .int(1)]), "updated \(table) \(sysID)")
        case .filter(let filter, let max):
            let (sysIDs, query) = try await matching(table, filter, max: max, verb: "updated", scope: scope)
            if options.dryRun {
                plan(
                    label, "PATCH", path: "/api/now/table/\(table)/{sys_id}", items: items, fields: fields,
                    matches: sysIDs.count, query: query)
                return (
                    Self.many(sysIDs, records: []),
                    "would update \(Self.records(sysIDs.count, of: table)) (dry run)"
                )
            }
            var records: [Value] = []
            for sysID in sysIDs {
                records.append(try await update(table, sysID, fields, writeOptions, configuration, label: label))
            }
            return (
                Self.many(sysIDs, records: records),
                "updated \(Self.records(sysIDs.count, of: table))"
            )
        }
    }

    func perform(_ step: DeleteStep, label: String, scope: Scope) async throws(StepFailure) -> (Value, String) {
        let table = try text(step.table, "table", scope: scope)
        switch step.target {
        case .sysID(let template):
            let sysID = try text(template, "sys_id", scope: scope)
            if options.dryRun {
                plan(label, "DELETE", path: "/api/now/table/\(table)/\(sysID)", items: [], fields: nil)
                dryRunRecords[sysID] = nil
                return (.map(["sys_id": .string(sysID), "count": .int(1)]), "would delete \(table) \(sysID) (dry run)")
            }
            try await delete(table, sysID, label: label)
            return (.map(["sys_id": .string(sysID), "count": .int(1)]), "deleted \(table) \(sysID)")
        case .filter(let filter, let max):
            let (sysIDs, query) = try await matching(table, filter, max: max, verb: "deleted", scope: scope)
            if options.dryRun {
                plan(
                    label, "DELETE", path: "/api/now/table/\(table)/{sys_id}", items: [], fields: nil,
                    matches: sysIDs.count, query: query)
                return (
                    Self.many(sysIDs, records: nil),
                    "would delete \(Self.records(sysIDs.count, of: table)) (dry run)"
                )
            }
            for sysID in sysIDs { try await delete(table, sysID, label: label) }
            return (
                Self.many(sysIDs, records: nil),
                "deleted \(Self.records(sysIDs.count, of: table))"
            )
        }
    }

    // MARK: - Requests

    /// The fields of a record of `table`, all empty, read from one existing record (a dry run may read).
    private func dryRunShape(of table: String) async throws(StepFailure) -> [String: Value] {
        if let shape = dryRunShapes[table] { return shape }
        let records = try await calling {
            try Self.resultList(try await service.records(from: table, configuration: FetchConfiguration(limit: 1)))
        }
        var shape: [String: Value] = [:]
        if case .map(let fields)? = records.first {
            for name in fields.keys { shape[name] = .string("") }
        }
        dryRunShapes[table] = shape
        return shape
    }

    private func update(
        _ table: String, _ sysID: String, _ fields: [FieldName: FieldValue], _ writeOptions: FieldWriteOptions,
        _ configuration: FieldReadConfiguration, label: String
    ) async throws(StepFailure) -> Value {
        let record = try await calling {
            try Self.result(
                try await service.updateRecord(
                    sysId: sysID, in: table, with: fields, writeOptions: writeOptions, configuration: configuration))
        }
        touched.append(TouchedRecord(action: .updated, table: table, sysID: sysID, step: label))
        return shown(record)
    }

    /// A record as the job sees it: dates in the job's format.
    func shown(_ value: Value) -> Value {
        dates?.incoming(value) ?? value
    }

    private func delete(_ table: String, _ sysID: String, label: String) async throws(StepFailure) {
        try await calling { try await service.deleteRecord(sysId: sysID, from: table) }
        touched.append(TouchedRecord(action: .deleted, table: table, sysID: sysID, step: label))
    }

    /// The sys_ids of the records a write by query concerns; fails, before anything is written, when more than
    /// `max` match.
    private func matching(
        _ table: String, _ filter: RecordFilter, max: Int, verb: String, scope: Scope
    ) async throws(StepFailure) -> ([String], String) {
        let query = try encodedQuery(filter, scope: scope)
        let configuration = FetchConfiguration(
            filter: query.isEmpty ? nil : Filter(query: query), limit: max + 1,
            readConfiguration: FieldReadConfiguration(includeFields: ["sys_id"]))
        let records = try await calling {
            try Self.resultList(try await service.records(from: table, configuration: configuration))
        }
        let sysIDs = records.map(Self.sysID(of:))
        guard sysIDs.count <= max else {
            let condition = query.isEmpty ? "with no condition" : "'\(query)'"
            throw StepFailure(
                "more than \(Self.records(max, of: table)) match \(condition) (max: \(max)); nothing was \(verb)",
                fromInstance: true)
        }
        return (sysIDs, query)
    }

    /// Records a write a dry run does not send.
    private func plan(
        _ label: String, _ method: String, path: String, items: [URLQueryItem], fields: [FieldName: FieldValue]?,
        matches: Int? = nil, query: String? = nil
    ) {
        var path = path
        if !items.isEmpty {
            path += "?" + items.map { "\($0.name)=\($0.value ?? "")" }.joined(separator: "&")
        }
        var body = ""
        if let fields {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            body = (try? encoder.encode(fields)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        }
        if let query { path += " for each match of '\(query)'" }
        let write = PlannedWrite(step: label, method: method, path: masker(path), body: masker(body), matches: matches)
        planned.append(write)
        options.onEvent(.plannedWrite(write))
    }

    // MARK: - Helpers

    /// Runs a NowData call, turning its error into the step's failure.
    func calling<T>(_ body: () async throws -> T) async throws(StepFailure) -> T {
        do {
            return try await body()
        } catch var failure as StepFailure {
            failure.fromInstance = true
            throw failure
        } catch {
            var failure = StepFailure("\(error)", fromInstance: true)
            failure.cause = error as? NowDataError
            throw failure
        }
    }

    /// Whether a create that failed with `cause` may still have created its record: no answer came (the
    /// connection failed or the request was cancelled once sent) or the server failed (5xx), rather than a
    /// refusal before or at the instance.
    static func mayHaveCreated(_ cause: NowDataError?) -> Bool {
        switch cause {
        case .network: return true
        case .badResponse(let status): return status.code >= 500
        default: return false
        }
    }

    private func readConfiguration(_ fields: [String], _ settings: ReadSettings) -> FieldReadConfiguration {
        var options: FieldReadConfiguration.Options = []
        switch settings.displayValue {
        case .actual: break
        case .display: options.insert(.displayValues)
        case .all: options.formUnion([.displayValues, .actualValues])
        }
        if settings.excludeReferenceLink { options.insert(.excludeReferenceLink) }
        return FieldReadConfiguration(includeFields: fields, options: options)
    }

    private func writeOptions(_ settings: WriteSettings) -> FieldWriteOptions {
        var options: FieldWriteOptions = []
        if settings.inputDisplayValue { options.insert(.treatInputValuesAsDisplayValues) }
        if settings.suppressAutoSysField { options.insert(.suppressAutoSysField) }
        return options
    }

    private func ordered(_ query: String, by field: Template, descending: Bool, scope: Scope) throws(StepFailure)
        -> String
    {
        let name = try text(field, descending ? "order_by_desc" : "order_by", scope: scope)
        guard JobBuilder.isFieldName(name) else {
            throw StepFailure("order_by: '\(name)' is not a field name")
        }
        let clause = (descending ? "ORDERBYDESC" : "ORDERBY") + name
        return query.isEmpty ? clause : query + "^" + clause
    }

    /// The encoded query of a `query:` or `where:`, with every value checked (empty for none).
    func encodedQuery(_ filter: RecordFilter?, scope: Scope) throws(StepFailure) -> String {
        do throws(QueryBuildError) {
            switch filter {
            case nil: return ""
            case .query(let template): return try EncodedQueryBuilder.render(template, in: scope)
            case .matching(let conditions):
                var values: [(field: String, value: Value, source: String)] = []
                for condition in conditions {
                    do {
                        var value = try condition.value.evaluate(in: scope)
                        if case .string(let text) = value, let date = dates?.outgoing(text) {
                            value = .string(DateFormatter.nonISO8601UTC.string(from: date))
                        }
                        values.append((condition.name, value, condition.value.sourceText))
                    } catch {
                        throw QueryBuildError(message: "\(condition.name): \(error.message)")
                    }
                }
                return try EncodedQueryBuilder.whereClause(values)
            }
        } catch {
            throw StepFailure(
                "\(filter.map { if case .query = $0 { "query" } else { "where" } } ?? "query"): \(error.message)")
        }
    }

    static func result(_ data: Data) throws -> Value {
        guard case .map(let body) = try Value(json: data), let result = body["result"] else {
            throw StepFailure("the instance's answer has no result")
        }
        return result
    }

    static func resultList(_ data: Data) throws -> [Value] {
        guard case .list(let items) = try result(data) else {
            throw StepFailure("the instance's answer has no list of records")
        }
        return items
    }

    /// The sys_id of a record, whether plain or as `{value, display_value}`.
    static func sysID(of record: Value) -> String {
        guard case .map(let fields) = record, let sysID = fields["sys_id"] else { return "" }
        if case .map(let parts) = sysID { return parts["value"]?.text ?? "" }
        return sysID.text
    }

    /// `1 incident record`, `8 incident records`.
    private static func records(_ count: Int, of table: String) -> String {
        "\(count) \(table) record\(count == 1 ? "" : "s")"
    }

    private static func many(_ sysIDs: [String], records: [Value]?) -> Value {
        var result: [String: Value] = ["sys_ids": .list(sysIDs.map(Value.string)), "count": .int(sysIDs.count)]
        if let records { result["records"] = .list(records) }
        return .map(result)
    }
}
