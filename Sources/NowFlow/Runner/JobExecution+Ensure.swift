import Foundation
import NowData

/// The `ensure` step: find the record, then create, update, delete or leave it.
///
/// The record is read with `display_value=all`, so that each field's stored value and display value are both at
/// hand: a wanted value equal to either is the record's already (a choice's label or value, a reference's sys_id
/// or display value). Every other value is compared as the Table API stores it: dates in ServiceNow's UTC format
/// (a date in the job's format is converted first), numbers and booleans as their text. Only the fields that
/// differ are sent. In a dry run the reads go to the instance as in a real run, so the decision is the same, and
/// the write not sent shows the same diff. The records found are checked against the match first, as a write by
/// query's are (``verifiedMatches(_:query:max:verb:)``). A match that selects no record (a condition over an empty
/// list) finds none without a request: `present` creates the record, `absent` leaves nothing to delete.
extension JobExecution {
    func perform(_ step: EnsureStep, label: String, scope: Scope) async throws(StepFailure) -> (StepResult, String) {
        let table = try text(step.table, "table", scope: scope)
        let query: String
        var nothing: String?
        switch try selection(step.match, table: table, scope: scope) {
        case .query(let selected): query = selected.text
        case .nothing(let reason): (query, nothing) = ("", reason)
        }
        let wanted = try fieldValues(step.fields, scope: scope)
        // A match that selects no record finds none without asking the instance.
        let found = nothing != nil ? nil : try await ensuredRecord(table, query: query, fields: step.fields.map(\.name))
        let outcome: EnsureOutcome
        switch (found, step.state) {
        case (nil, .absent):
            outcome = EnsureOutcome(result: .absent, table: table, query: query, nothing: nothing)
        case (nil, .present):
            var createdFields = step.createdFields
            // A match: pair over an empty list gives the record it creates no value (nor a sys_id).
            createdFields.removeAll { field in
                !step.fields.contains { $0.name == field.name } && (try? field.value.evaluate(in: scope)) == .array([])
            }
            let create = CreateStep(table: step.table, fields: createdFields, settings: step.settings)
            let (created, _) = try await perform(create, label: label, scope: scope)
            var done = EnsureOutcome(result: .created, table: table, query: query, nothing: nothing)
            if case .written(let write) = created {
                done.sysID = write.sysIDs.first ?? ""
                done.record = write.record
            }
            done.display = done.record.flatMap { RecordName($0, fields: naming(table)) }?.text
            done.written = createdFields.map(\.name)
            outcome = done
        case (let record?, .absent):
            var done = EnsureOutcome(result: .deleted, table: table, query: query)
            done.sysID = record.sysId ?? ""
            done.display = RecordName(record, fields: naming(table))?.text
            done.record = dates.incoming(record.values(as: step.settings.read.displayValue))
            try await delete(table, done.sysID, label: label)
            outcome = done
        case (let record?, .present):
            var done = EnsureOutcome(result: .unchanged, table: table, query: query)
            done.sysID = record.sysId ?? ""
            done.display = RecordName(record, fields: naming(table))?.text
            var changes: [FieldName: FieldValue] = [:]
            for field in step.fields {
                guard let value = wanted[field.name] else { continue }
                guard !record.holds(value, in: field.name) else { continue }
                changes[field.name] = value
                done.written.append(field.name)
                let stored = record.value(field.name).map(JSONValue.string) ?? record.json[field.name]
                done.changes.append((field.name, stored ?? .null, .string(value.stringValue)))
            }
            if changes.isEmpty {
                done.record = dates.incoming(record.values(as: step.settings.read.displayValue))
            } else {
                done.result = .updated
                let answer = try await update(
                    table, done.sysID, changes, writeOptions(step.settings), readConfiguration([], step.settings.read),
                    label: label)
                done.record = WrittenRecords(answers: [answer], dates: dates).values.first ?? nil
            }
            outcome = done
        }
        ensured[outcome.result.rawValue, default: 0] += 1
        return (.ensured(outcome), outcome.summary(dryRun: dryRun != nil))
    }

    /// The one record of `table` that `query` matches, each field as `{value, display_value}`, or nil when none
    /// does; fails when more than one does.
    private func ensuredRecord(_ table: String, query: String, fields: [String]) async throws(StepFailure)
        -> NowRecord?
    {
        let nothing = "; nothing was written"
        let predicate = try await predicate(for: query, on: table, nothing)
        // The fields that name the record (its display field too, now that the check read the table's dictionary).
        let naming = naming(table)
        var names = ["sys_id"]
        for field in naming + RecordTable.leadingFields + fields where !names.contains(field) { names.append(field) }
        let read = names + predicate.fields.filter { !names.contains($0) }
        let options: FieldReadConfiguration.Options = [.actualValues, .displayValues, .excludeReferenceLink]
        let configuration = FetchConfiguration(
            filter: query.isEmpty ? nil : Filter(query: query), limit: 2,
            readConfiguration: FieldReadConfiguration(includeFields: read, options: options))
        let records = try await calling {
            try JSONValue.tableRecords(of: try await service.records(from: table, configuration: configuration))
        }
        try predicate.check(records, naming: naming, nothing)
        guard records.count <= 1 else {
            throw await tooMany(
                table, query: query, max: 1, ": ensure changes one record; give a match: (or query:) that finds one")
        }
        // The fields read only for the check are not the record's result.
        guard let found = records.first else { return nil }
        do {
            guard case .object(let object) = found else { throw NowDataError.cannotParseResponse }
            return try NowRecord(.object(JSONObject(object.filter { names.contains($0.key) }.map { ($0.key, $0.value) })))
        } catch {
            throw StepFailure("the instance's answer has an element that is not a record: \(error)", fromInstance: true)
        }
    }
}
