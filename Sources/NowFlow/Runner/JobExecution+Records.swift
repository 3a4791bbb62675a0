import Foundation
import NowData

/// The steps that talk to the instance: query, get, create, update, delete.
///
/// A dry run takes the same path as a real one: every request goes through NowData, and the service's
/// ``DryRunTransport`` keeps the writes and answers them with stand-ins. Only the summaries and the records touched
/// differ.
extension JobExecution {
    func perform(_ step: QueryStep, id: String?, label: String, scope: Scope) async throws(StepFailure)
        -> (StepResult, String)
    {
        let table = try text(step.table, "table", scope: scope)
        var query: EncodedQuery
        var translated: [String] = []
        switch try selection(step.filter, table: table, scope: scope, translated: &translated) {
        case .nothing(let reason):
            return (.records([]), "0 records from \(table): \(reason)")
        case .query(let selected):
            query = selected
        }
        if let orderBy = step.orderBy {
            try order(&query, by: orderBy, descending: false, scope: scope)
        }
        if let orderBy = step.orderByDescending {
            try order(&query, by: orderBy, descending: true, scope: scope)
        }
        let limit = try step.limit.map { setting throws(StepFailure) in try count(setting, scope: scope) }
        let pageSize =
            try step.pageSize.map { setting throws(StepFailure) in try count(setting, scope: scope) }
            ?? min(limit ?? QueryStep.defaultPageSize, QueryStep.defaultPageSize)
        let reading = readConfiguration(step.fields, step.read)
        // A query of one page at most (its limit within page_size) has nothing to shift: one request, by offset.
        let paging =
            step.paging == .keyed && (limit ?? Int.max) > pageSize
            ? try await self.paging(query, on: table, reading: reading) : nil
        let path = try step.to.map { template throws(StepFailure) in try text(template, "to", scope: scope) }
        let output = try path.map { path throws(StepFailure) in try outputFile(path, overwrite: step.overwrite) }
        let stream = RecordStream(
            execution: self, table: table, query: query, paging: paging, limit: limit, pageSize: pageSize,
            readConfiguration: reading, label: label, output: output)
        var opened = false
        defer { if !opened { stream.finish() } }
        let streamed = StreamedRecords(path: path.map { resolvedPath($0).path })
        var records: [NowRecord] = []
        while let page = try await stream.nextPage() {
            // A query of one page keeps its records whatever its delivery: its result is the same as collected.
            if step.delivery == .collect || stream.read == page.count { records += page } else { records = [] }
            if step.delivery == .foreach {
                // The first page: errors show at the query; the foreach reads the rest.
                break
            }
        }
        let written = path.map { ", written to \($0)" } ?? ""
        let labels = Self.labels(translated)
        if step.delivery == .foreach, stream.read == records.count, !stream.isFinished, let id {
            streamed.count = stream.read
            opened = true
            openStreams[id] = OpenStream(stream: stream, firstPage: records, streamed: streamed)
            let first = "first \(String(count: records.count, "\(table) record"))"
            return (.streamed(streamed), "\(first)\(labels)\(stream.pagingNote)\(written); the foreach over steps.\(id).records reads the rest")
        }
        let summary = "\(stream.read) record\(stream.read == 1 ? "" : "s") from \(table)\(labels)"
        if step.delivery == .collect || stream.read == records.count {
            return (.records(records), summary + (stream.pages > 1 ? stream.pagingNote : "") + written)
        }
        streamed.count = stream.read
        return (.streamed(streamed), "\(summary)\(stream.pagingNote), streamed (not kept)\(written)")
    }

    /// The file of a query's `to:`, created empty; refused when it exists and `overwrite` is false.
    private func outputFile(_ path: String, overwrite: Bool) throws(StepFailure) -> FileHandle {
        let url = resolvedPath(path)
        if !overwrite, FileManager.default.fileExists(atPath: url.path) {
            throw StepFailure("to: '\(path)' exists (\(url.path)); give overwrite: true to replace it")
        }
        guard FileManager.default.createFile(atPath: url.path, contents: nil),
            let handle = FileHandle(forWritingAtPath: url.path)
        else {
            throw StepFailure("to: cannot write '\(path)' (\(url.path))")
        }
        return handle
    }

    func perform(_ step: GetStep, scope: Scope) async throws(StepFailure) -> (StepResult, String) {
        let table = try text(step.table, "table", scope: scope)
        let sysID = try text(step.sysID, "sys_id", scope: scope)
        let configuration = readConfiguration(step.fields, step.read)
        let record = try await calling {
            try incomingRecord(try await service.record(with: sysID, from: table, configuration: configuration))
        }
        let standIn = dryRun?.isStandIn(sysID) == true ? " (dry run)" : ""
        return (.record(record, sysID: sysID), "\(table) \(sysID)\(standIn)")
    }

    func perform(_ step: CreateStep, label: String, scope: Scope) async throws(StepFailure) -> (StepResult, String) {
        let table = try text(step.table, "table", scope: scope)
        var fields = try fieldValues(step.fields, scope: scope)
        // The sys_id is chosen before sending, so that a create whose answer never comes can still be reported; a
        // dry run's stand-in has a sys_id that says what it is.
        let assigned = fields["sys_id"]?.stringValue ?? dryRun?.nextStandInSysID() ?? NowTableService.makeSysID()
        fields["sys_id"] = .string(assigned)
        let record: NowRecord?
        do {
            record = try await calling {
                try incomingRecord(
                    try await service.createRecord(
                        with: fields, in: table, writeOptions: writeOptions(step.settings),
                        configuration: readConfiguration([], step.settings.read)))
            }
        } catch {
            if dryRun == nil, error.cause?.mayHaveWritten == true {
                touched.append(TouchedRecord(action: .possiblyCreated, table: table, sysID: assigned, step: label))
            }
            throw error
        }
        let sysID = record?.sysId ?? ""
        let result = StepResult.written(
            RecordWrite(action: .created, sysIDs: [sysID], byQuery: false, records: WrittenRecords([record])))
        guard dryRun == nil else { return (result, "would create a record in \(table) (dry run)") }
        touched.append(TouchedRecord(action: .created, table: table, sysID: sysID, step: label))
        if let record, let name = RecordName(record, fields: naming(table)) { numbers[sysID] = name.text }
        return (result, "created \(table) \(sysID)")
    }

    func perform(_ step: UpdateStep, label: String, scope: Scope) async throws(StepFailure) -> (StepResult, String) {
        let table = try text(step.table, "table", scope: scope)
        let fields = try fieldValues(step.fields, scope: scope)
        let configuration = readConfiguration([], step.settings.read)
        let writeOptions = writeOptions(step.settings)
        switch step.target {
        case .sysID(let template):
            let sysID = try text(template, "sys_id", scope: scope)
            let answer = try await update(table, sysID, fields, writeOptions, configuration, label: label)
            let records = WrittenRecords(answers: [answer], dates: dates)
            let result = StepResult.written(
                RecordWrite(action: .updated, sysIDs: [sysID], byQuery: false, records: records))
            return (result, "\(dryRun == nil ? "updated" : "would update") \(table) \(sysID)\(dryRunMark)")
        case .filter(let filter, let max):
            let (matches, note) = try await matching(
                table, filter, max: try count(max, scope: scope), verb: "updated", scope: scope)
            let sysIDs = matches.map(\.sysID)
            var answers: [Data] = []
            answers.reserveCapacity(matches.count)
            for match in matches {
                answers.append(
                    try await update(table, match.sysID, fields, writeOptions, configuration, label: label, match: match))
            }
            let verb = dryRun == nil ? "updated" : "would update"
            let records = WrittenRecords(answers: answers, dates: dates)
            return (
                .written(RecordWrite(action: .updated, sysIDs: sysIDs, byQuery: true, records: records)),
                "\(verb) \(String(count: sysIDs.count, "\(table) record"))\(dryRunMark)\(note)"
            )
        }
    }

    func perform(_ step: DeleteStep, label: String, scope: Scope) async throws(StepFailure) -> (StepResult, String) {
        let table = try text(step.table, "table", scope: scope)
        let verb = dryRun == nil ? "deleted" : "would delete"
        switch step.target {
        case .sysID(let template):
            let sysID = try text(template, "sys_id", scope: scope)
            try await delete(table, sysID, label: label)
            let write = RecordWrite(action: .deleted, sysIDs: [sysID], byQuery: false, records: nil)
            return (.written(write), "\(verb) \(table) \(sysID)\(dryRunMark)")
        case .filter(let filter, let max):
            let (matches, note) = try await matching(
                table, filter, max: try count(max, scope: scope), verb: "deleted", scope: scope)
            let sysIDs = matches.map(\.sysID)
            for sysID in sysIDs { try await delete(table, sysID, label: label) }
            return (
                .written(RecordWrite(action: .deleted, sysIDs: sysIDs, byQuery: true, records: nil)), "\(verb) \(String(count: sysIDs.count, "\(table) record"))\(dryRunMark)\(note)"
            )
        }
    }

    // MARK: - Requests

    /// ` (dry run)` after the summary of a write a dry run did not send; nothing in a real run.
    private var dryRunMark: String { dryRun == nil ? "" : " (dry run)" }

    /// Updates the record; gives the instance's answer (`{"result": record}`), of which only the record's name
    /// (``RecordName``, for the records-touched summary) is read here, and only when the run does not know it: a
    /// write that sets none of the fields that name the table's records, and reads its answer without display
    /// values, leaves the record's name as the read before it found it (`match`, for a write by query) or as the
    /// run noted it already (the create or write before it, for a write by sys_id).
    func update(
        _ table: String, _ sysID: String, _ fields: [FieldName: FieldValue], _ writeOptions: FieldWriteOptions,
        _ configuration: FieldReadConfiguration, label: String, match: VerifiedMatch? = nil
    ) async throws(StepFailure) -> Data {
        let naming = naming(table)
        let keepsName =
            !configuration.options.contains(.displayValues) && !fields.keys.contains { naming.contains($0.lowercased()) }
        // The name when it is known without the answer (nil inside for a record that has none, or whose noted
        // name stands); nil to read it from the answer.
        var known: RecordName?? = nil
        if keepsName, let match {
            known = .some(match.name)
        } else if keepsName, numbers[sysID] != nil {
            known = .some(nil)
        }
        let (answer, name) = try await calling {
            let answer = try await service.updateRecord(
                sysId: sysID, in: table, with: fields, writeOptions: writeOptions, configuration: configuration)
            return (answer, try known ?? RecordName.ofAnswer(answer, fields: naming))
        }
        if dryRun == nil {
            touched.append(TouchedRecord(action: .updated, table: table, sysID: sysID, step: label))
            if let name { numbers[sysID] = name.text }
        }
        return answer
    }

    /// The records of a Table API answer (`{"result": [...]}`) as the job sees them: dates in the job's format.
    func incomingRecords(_ data: Data) throws -> [NowRecord] {
        try storedRecords(data).map(dates.incoming)
    }

    /// The records of a Table API answer (`{"result": [...]}`) as the instance sent them (dates in UTC).
    func storedRecords(_ data: Data) throws -> [NowRecord] {
        try JSONValue.tableRecords(of: data).map { item in
            guard let record = try? NowRecord(item) else {
                throw StepFailure("the instance's answer has an element that is not a record")
            }
            return record
        }
    }

    /// The record of a Table API answer (`{"result": {...}}`) as the job sees it: dates in the job's format; nil
    /// when the result is not a record.
    func incomingRecord(_ data: Data) throws -> NowRecord? {
        let result = try JSONValue.tableResult(of: data)
        return (try? NowRecord(result)).map(dates.incoming)
    }

    func delete(_ table: String, _ sysID: String, label: String) async throws(StepFailure) {
        try await calling { try await service.deleteRecord(sysId: sysID, from: table) }
        if dryRun == nil {
            touched.append(TouchedRecord(action: .deleted, table: table, sysID: sysID, step: label))
            noteAttachmentsDeleted(with: table, sysID, label: label)
        }
    }

    /// The records a write by query concerns, and what its summary adds (why none, without asking
    /// the instance, when the filter selects no record; the choice labels translated); fails, before anything is
    /// written, when more than `max` match.
    private func matching(
        _ table: String, _ filter: RecordFilter, max: Int, verb: String, scope: Scope
    ) async throws(StepFailure) -> (matches: [VerifiedMatch], note: String) {
        let query: String
        var translated: [String] = []
        switch try selection(filter, table: table, scope: scope, translated: &translated) {
        case .nothing(let reason): return ([], ": " + reason)
        case .query(let selected): query = selected.text
        }
        let matches = try await verifiedMatches(table, query: query, max: max, verb: verb)
        return (matches, Self.labels(translated))
    }

    /// ` (incident.state: Resolved = 6)`: the choice labels a query's conditions compared by their values; empty
    /// for none. It lives on the runner because the translations are the runner's own notes (``checked(_:of:translated:)``
    /// makes them, a write by query's summary shows them) and have no type of their own to go on.
    static func labels(_ translated: [String]) -> String {
        translated.isEmpty ? "" : " (\(translated.joined(separator: ", ")))"
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
            total == Int.max || total <= max ? "more than \(String(count: max, "\(table) record"))" : String(count: total, "\(table) record")
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

    /// Adds the sort term of `order_by:` or `order_by_desc:` to `query`.
    private func order(_ query: inout EncodedQuery, by field: Template, descending: Bool, scope: Scope)
        throws(StepFailure)
    {
        let name = try text(field, descending ? "order_by_desc" : "order_by", scope: scope)
        guard NameUse.isFieldName(name) else {
            throw StepFailure("order_by: '\(name)' is not a field name")
        }
        query.ordering.append(EncodedQuery.Ordering(field: name, descending: descending))
    }

    /// The records a `query:` or `where:` selects, every value checked (an empty query for no filter): each
    /// condition's value against the field's type and choices too, when the name check read the dictionary of
    /// `table`, a choice label translated to its value (each noted in `translated`, `incident.state: Resolved =
    /// 6`).
    func selection(
        _ filter: RecordFilter?, table: String? = nil, scope: Scope, translated: inout [String]
    ) throws(StepFailure) -> RecordSelection {
        let key = filter.map { if case .query = $0 { "query" } else { "where" } } ?? "query"
        let selection: RecordSelection
        do throws(QueryBuildError) {
            switch filter {
            case nil: return .query(EncodedQuery(groups: []))
            case .query(let template): selection = try EncodedQueryBuilder.selection(template, in: scope)
            case .matching(let clause):
                selection = try EncodedQueryBuilder.query(clause) { condition throws(QueryBuildError) in
                    guard let template = condition.value else { return (.null, "") }
                    do throws(EvaluationError) {
                        var value = try template.evaluate(in: scope)
                        value = outgoingDates(value)
                        return (value, template.sourceText)
                    } catch {
                        throw QueryBuildError(message: "\(condition.field): \(error.message)")
                    }
                }
            }
        } catch {
            throw StepFailure("\(key): \(error.message)")
        }
        guard case .query(let query) = selection, let table else { return selection }
        do throws(QueryBuildError) {
            return .query(try checked(query, of: table, translated: &translated))
        } catch {
            throw StepFailure("\(key): \(error.message); nothing was sent")
        }
    }

    /// ``selection(_:table:scope:translated:)`` without the translations.
    func selection(_ filter: RecordFilter?, table: String? = nil, scope: Scope) throws(StepFailure) -> RecordSelection {
        var translated: [String] = []
        return try selection(filter, table: table, scope: scope, translated: &translated)
    }

    /// `query` with its conditions checked against the fields' types and choices (see ``ConditionField``) and
    /// each choice label replaced by its value; as it is when the name check did not read `table`.
    ///
    /// - Throws: the first value a field cannot be compared with, as the name check reports it.
    func checked(_ query: EncodedQuery, of table: String, translated: inout [String]) throws(QueryBuildError)
        -> EncodedQuery
    {
        guard let dictionary = options.checkedDictionary.dictionary else { return query }
        var query = query
        for g in query.groups.indices {
            for c in query.groups[g].clauses.indices {
                for t in query.groups[g].clauses[c].terms.indices {
                    guard case .condition(let condition) = query.groups[g].clauses[c].terms[t],
                        let field = dictionary.conditionField(condition.field, of: table)
                    else { continue }
                    var values = condition.comparedValues
                    // A dry run's stand-in record has a sys_id that says what it is, not 32 hexadecimal digits.
                    for index in values.indices where dryRun?.isStandIn(values[index]) != true {
                        if let value = field.value(forLabel: values[index], by: condition.op) {
                            translated.append("\(field.name): \(values[index]) = \(value)")
                            values[index] = value
                        } else if let problem = field.problem(comparing: values[index], by: condition.op, dates: dates) {
                            throw QueryBuildError(message: problem)
                        }
                    }
                    guard values != condition.comparedValues else { continue }
                    query.groups[g].clauses[c].terms[t] = .condition(
                        EncodedQuery.Condition(
                            field: condition.field, op: condition.op, value: values.joined(separator: ",")))
                }
            }
        }
        return query
    }

    /// A `where:` value with its dates (a text in the job's date format) in the instance's format, in a list too.
    private func outgoingDates(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string(let text): dates.outgoing(text).map { .string(Coder.default.text(for: $0)) } ?? value
        case .array(let items): .array(items.map(outgoingDates))
        default: value
        }
    }
}
