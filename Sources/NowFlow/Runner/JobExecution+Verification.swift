import Foundation
import NowData

/// The second opinion on a write by query: the platform ignores a condition it cannot apply (a label for an
/// integer choice, `yes` for a boolean, a field it does not have) and returns more records than the query says, so
/// the runner checks every record the instance returned against the query itself before writing any.
extension JobExecution {
    /// The records a write by query concerns: the records of `table` the instance returns for `query` (at most
    /// `max + 1`, with the fields the conditions name and those that name a record), each checked against the query by a
    /// ``RecordPredicate``. Fails, before anything is written, when a record does not satisfy the query (naming the
    /// condition the instance ignored and the record that shows it), when the query cannot be checked here, or when
    /// more than `max` match. `verb` says what would have been done (`updated`, `deleted`).
    func verifiedMatches(_ table: String, query: String, max: Int, verb: String) async throws(StepFailure)
        -> [VerifiedMatch]
    {
        let nothing = "; nothing was \(verb)"
        let predicate = try await predicate(for: query, on: table, nothing)
        // The fields that name a record too (all of them: the instance leaves out those the table lacks), so that a
        // write which sets none of them need not read its answer for the record's name, and a record the instance
        // should not have returned is named as a person knows it.
        var read = predicate.fields
        let naming = naming(table)
        for field in naming where !read.contains(field) { read.append(field) }
        let configuration = FetchConfiguration(
            filter: query.isEmpty ? nil : Filter(query: query), limit: max + 1,
            readConfiguration: FieldReadConfiguration(includeFields: read, options: [.excludeReferenceLink]))
        let records = try await calling {
            try JSONValue.tableRecords(of: try await service.records(from: table, configuration: configuration))
        }
        try predicate.check(records, naming: naming, nothing)
        guard records.count <= max else {
            throw await tooMany(table, query: query, max: max, " (max: \(max))\(nothing)")
        }
        return records.map { record in
            VerifiedMatch(
                sysID: NowRecord.sysID(of: record),
                name: (try? NowRecord(record)).flatMap { RecordName($0, fields: naming) })
        }
    }

    /// The predicate of `query` over `table`; the instance's dictionary is read for the table and every table the
    /// conditions walk to, those entries that the name check's dictionary (``RunOptions/checkedDictionary``) and the
    /// checks before lack.
    func predicate(for query: String, on table: String, _ nothing: String) async throws(StepFailure)
        -> RecordPredicate
    {
        let parsed: EncodedQuery
        do {
            parsed = try EncodedQuery.parse(query)
        } catch {
            throw StepFailure("\(error)\(nothing)")
        }
        var dictionary: InstanceDictionary
        do {
            // From what the name check read, when it ran: a run reads each dictionary entry once.
            dictionary = verificationDictionary ?? options.checkedDictionary.dictionary ?? InstanceDictionary()
            try await dictionary.loadTables([table], service: service)
            try await dictionary.loadFields(of: [table], service: service)
            for group in parsed.groups {
                for clause in group.clauses {
                    for case .condition(let condition) in clause.terms {
                        _ = try await dictionary.walk(FieldPath(condition.field), from: table, service: service)
                    }
                }
            }
        } catch {
            throw StepFailure(
                "cannot check the records against the query: cannot read the instance's dictionary "
                    + "(sys_db_object, sys_dictionary): \(error)\(nothing)", fromInstance: true)
        }
        verificationDictionary = dictionary
        guard dictionary.tables.contains(table) else {
            throw StepFailure(
                "cannot check the records against the query: the instance's dictionary has no table "
                    + "'\(table)'\(nothing)",
                fromInstance: true)
        }
        let clock = RecordPredicate.Clock(now: Date(), timeZone: nil)
        do {
            return try RecordPredicate(parsed, table: table, clock: clock) { field, table in
                dictionary.fieldType(field, in: table)
            }
        } catch {
            // Enforced in a dry run too: the real run would refuse the same query.
            throw StepFailure("\(error)\(nothing)", fromInstance: true)
        }
    }
}
