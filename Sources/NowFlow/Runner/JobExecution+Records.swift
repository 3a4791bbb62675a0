import Foundation
import NowData

/// The steps that talk to the instance: query, get, create, update, delete.
///
/// A dry run takes the same path as a real one: every request goes through NowData, and the service's
/// ``DryRunTransport`` keeps the writes and answers them with stand-ins. Only the summaries and the records touched
/// differ.
extension JobExecution {
    /// The most records one page of a query asks for when the step gives no `page_size`.
    static let defaultPageSize = 100

    func perform(_ step: QueryStep, label: String, scope: Scope) async throws(StepFailure) -> (JSONValue, String) {
        let table = try text(step.table, "table", scope: scope)
        var query = try encodedQuery(step.filter, scope: scope)
        if let orderBy = step.orderBy {
            query = try ordered(query, by: orderBy, descending: false, scope: scope)
        }
        if let orderBy = step.orderByDescending {
            query = try ordered(query, by: orderBy, descending: true, scope: scope)
        }
        let limit = try step.limit.map { setting throws(StepFailure) in try count(setting, scope: scope) }
        let pageSize =
            try step.pageSize.map { setting throws(StepFailure) in try count(setting, scope: scope) }
            ?? min(limit ?? Self.defaultPageSize, Self.defaultPageSize)
        let configuration = FetchConfiguration(
            filter: query.isEmpty ? nil : Filter(query: query), limit: pageSize,
            readConfiguration: readConfiguration(step.fields, step.read))
        let paginator = service.paginator(from: table, configuration: configuration)
        paginator.maxRecords = limit
        var records: [JSONValue] = []
        try await calling {
            while let page = try await paginator.next() {
                let items = try Self.resultList(page).map(shown)
                records += items
                let pages = paginator.numberOfPages
                let announced = pages == Int.max ? nil : max(records.count, min(pages * pageSize, Int.max / 2))
                options.onEvent(.paging(label: label, fetched: records.count, expected: limit ?? announced))
                if items.isEmpty || records.count >= (limit ?? Int.max) { break }
            }
        }
        if let limit, records.count > limit { records.removeLast(records.count - limit) }
        let summary = "\(records.count) record\(records.count == 1 ? "" : "s") from \(table)"
        return (.object(["records": .array(records), "count": .number(JSONNumber(records.count))]), summary)
    }

    func perform(_ step: GetStep, scope: Scope) async throws(StepFailure) -> (JSONValue, String) {
        let table = try text(step.table, "table", scope: scope)
        let sysID = try text(step.sysID, "sys_id", scope: scope)
        let configuration = readConfiguration(step.fields, step.read)
        let record = try await calling {
            shown(try Self.result(try await service.record(with: sysID, from: table, configuration: configuration)))
        }
        let standIn = dryRun?.isStandIn(sysID) == true ? " (dry run)" : ""
        return (.object(["record": record, "sys_id": .string(sysID)]), "\(table) \(sysID)\(standIn)")
    }

    func perform(_ step: CreateStep, label: String, scope: Scope) async throws(StepFailure) -> (JSONValue, String) {
        let table = try text(step.table, "table", scope: scope)
        var fields = try fieldValues(step.fields, scope: scope)
        // The sys_id is chosen before sending, so that a create whose answer never comes can still be reported; a
        // dry run's stand-in has a sys_id that says what it is.
        let assigned = fields["sys_id"]?.stringValue ?? dryRun?.nextStandInSysID() ?? NowTableService.makeSysID()
        fields["sys_id"] = .string(assigned)
        let record: JSONValue
        do {
            record = try await calling {
                try Self.result(
                    try await service.createRecord(
                        with: fields, in: table, writeOptions: writeOptions(step.settings),
                        configuration: readConfiguration([], step.settings.read)))
            }
        } catch {
            if dryRun == nil, Self.mayHaveCreated(error.cause) {
                touched.append(TouchedRecord(action: .possiblyCreated, table: table, sysID: assigned, step: label))
            }
            throw error
        }
        let sysID = Self.sysID(of: record)
        let result: JSONValue = .object(["record": shown(record), "sys_id": .string(sysID)])
        guard dryRun == nil else { return (result, "would create a record in \(table) (dry run)") }
        touched.append(TouchedRecord(action: .created, table: table, sysID: sysID, step: label))
        noteNumber(of: record, sysID: sysID)
        return (result, "created \(table) \(sysID)")
    }

    func perform(_ step: UpdateStep, label: String, scope: Scope) async throws(StepFailure) -> (JSONValue, String) {
        let table = try text(step.table, "table", scope: scope)
        let fields = try fieldValues(step.fields, scope: scope)
        let configuration = readConfiguration([], step.settings.read)
        let writeOptions = writeOptions(step.settings)
        switch step.target {
        case .sysID(let template):
            let sysID = try text(template, "sys_id", scope: scope)
            let record = try await update(table, sysID, fields, writeOptions, configuration, label: label)
            let result: JSONValue = .object(["record": record, "sys_id": .string(sysID), "count": 1])
            return (result, "\(dryRun == nil ? "updated" : "would update") \(table) \(sysID)\(dryRunMark)")
        case .filter(let filter, let max):
            let sysIDs = try await matching(
                table, filter, max: try count(max, scope: scope), verb: "updated", scope: scope)
            var records: [JSONValue] = []
            for sysID in sysIDs {
                records.append(try await update(table, sysID, fields, writeOptions, configuration, label: label))
            }
            let verb = dryRun == nil ? "updated" : "would update"
            return (Self.many(sysIDs, records: records), "\(verb) \(Self.records(sysIDs.count, of: table))\(dryRunMark)")
        }
    }

    func perform(_ step: DeleteStep, label: String, scope: Scope) async throws(StepFailure) -> (JSONValue, String) {
        let table = try text(step.table, "table", scope: scope)
        let verb = dryRun == nil ? "deleted" : "would delete"
        switch step.target {
        case .sysID(let template):
            let sysID = try text(template, "sys_id", scope: scope)
            try await delete(table, sysID, label: label)
            return (.object(["sys_id": .string(sysID), "count": 1]), "\(verb) \(table) \(sysID)\(dryRunMark)")
        case .filter(let filter, let max):
            let sysIDs = try await matching(
                table, filter, max: try count(max, scope: scope), verb: "deleted", scope: scope)
            for sysID in sysIDs { try await delete(table, sysID, label: label) }
            return (Self.many(sysIDs, records: nil), "\(verb) \(Self.records(sysIDs.count, of: table))\(dryRunMark)")
        }
    }

    // MARK: - Requests

    /// ` (dry run)` after the summary of a write a dry run did not send; nothing in a real run.
    private var dryRunMark: String { dryRun == nil ? "" : " (dry run)" }

    func update(
        _ table: String, _ sysID: String, _ fields: [FieldName: FieldValue], _ writeOptions: FieldWriteOptions,
        _ configuration: FieldReadConfiguration, label: String
    ) async throws(StepFailure) -> JSONValue {
        let record = try await calling {
            try Self.result(
                try await service.updateRecord(
                    sysId: sysID, in: table, with: fields, writeOptions: writeOptions, configuration: configuration))
        }
        if dryRun == nil {
            touched.append(TouchedRecord(action: .updated, table: table, sysID: sysID, step: label))
            noteNumber(of: record, sysID: sysID)
        }
        return shown(record)
    }

    /// Keeps the record's `number` (or `name`), by which the summary names it.
    private func noteNumber(of record: JSONValue, sysID: String) {
        let known = [record["number"], record["name"]].compactMap { $0.map { $0["value"] ?? $0 }?.text }
        if let number = known.first(where: { !$0.isEmpty }) { numbers[sysID] = number }
    }

    /// A record as the job sees it: dates in the job's format.
    func shown(_ value: JSONValue) -> JSONValue {
        dates.incoming(value)
    }

    func delete(_ table: String, _ sysID: String, label: String) async throws(StepFailure) {
        try await calling { try await service.deleteRecord(sysId: sysID, from: table) }
        if dryRun == nil {
            touched.append(TouchedRecord(action: .deleted, table: table, sysID: sysID, step: label))
            noteAttachmentsDeleted(with: table, sysID, label: label)
        }
    }

    /// The sys_ids of the records a write by query concerns; fails, before anything is written, when more than
    /// `max` match.
    private func matching(
        _ table: String, _ filter: RecordFilter, max: Int, verb: String, scope: Scope
    ) async throws(StepFailure) -> [String] {
        let query = try encodedQuery(filter, scope: scope)
        let configuration = FetchConfiguration(
            filter: query.isEmpty ? nil : Filter(query: query), limit: max + 1,
            readConfiguration: FieldReadConfiguration(includeFields: ["sys_id"]))
        let records = try await calling {
            try Self.resultList(try await service.records(from: table, configuration: configuration))
        }
        let sysIDs = records.map(Self.sysID(of:))
        guard sysIDs.count <= max else {
            throw await tooMany(table, query: query, max: max, " (max: \(max)); nothing was \(verb)")
        }
        return sysIDs
    }

    /// The failure of a write by query when more than `max` records match `query`: how many do (the instance's
    /// count, X-Total-Count, of a one-record page), then `consequence`.
    func tooMany(_ table: String, query: String, max: Int, _ consequence: String) async -> StepFailure {
        let condition = query.isEmpty ? "with no condition" : "'\(query)'"
        let counting = service.paginator(
            from: table,
            configuration: FetchConfiguration(
                filter: query.isEmpty ? nil : Filter(query: query), limit: 1,
                readConfiguration: FieldReadConfiguration(includeFields: ["sys_id"])))
        _ = try? await counting.next()
        let total = counting.numberOfPages
        let matched =
            total == Int.max || total <= max ? "more than \(Self.records(max, of: table))" : Self.records(total, of: table)
        return StepFailure("\(matched) match \(condition)\(consequence)", fromInstance: true)
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

    /// The fields to read (all when `fields` is empty; with `sys_id` added when it leaves it out, so that a record
    /// read is always one a later step can name) and how.
    func readConfiguration(_ fields: [String], _ settings: ReadSettings) -> FieldReadConfiguration {
        var options = FieldReadConfiguration.Options(displayValue: settings.displayValue)
        if settings.excludeReferenceLink { options.insert(.excludeReferenceLink) }
        let read = fields.isEmpty || fields.contains("sys_id") ? fields : fields + ["sys_id"]
        return FieldReadConfiguration(includeFields: read, options: options)
    }

    func writeOptions(_ settings: WriteSettings) -> FieldWriteOptions {
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
                var values: [(field: String, value: JSONValue, source: String)] = []
                for condition in conditions {
                    do {
                        var value = try condition.value.evaluate(in: scope)
                        if case .string(let text) = value, let date = dates.outgoing(text) {
                            value = .string(Coder.default.text(for: date))
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

    /// The `result` of a Table API answer.
    static func result(_ data: Data) throws -> JSONValue {
        guard let result = try JSONValue(json: data)["result"] else {
            throw StepFailure("the instance's answer has no result")
        }
        return result
    }

    static func resultList(_ data: Data) throws -> [JSONValue] {
        guard case .array(let items) = try result(data) else {
            throw StepFailure("the instance's answer has no array of records")
        }
        return items
    }

    /// The sys_id of a record, whether plain or as `{value, display_value}`.
    static func sysID(of record: JSONValue) -> String {
        guard let sysID = record["sys_id"] else { return "" }
        if case .object(let parts) = sysID { return parts["value"]?.text ?? "" }
        return sysID.text
    }

    /// `1 incident record`, `8 incident records`.
    static func records(_ count: Int, of table: String) -> String {
        "\(count) \(table) record\(count == 1 ? "" : "s")"
    }

    private static func many(_ sysIDs: [String], records: [JSONValue]?) -> JSONValue {
        var result: JSONObject = [
            "sys_ids": .array(sysIDs.map(JSONValue.string)), "count": .number(JSONNumber(sysIDs.count)),
        ]
        if let records { result["records"] = .array(records) }
        return .object(result)
    }
}
