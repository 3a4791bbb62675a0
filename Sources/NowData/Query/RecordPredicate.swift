import Foundation

/// An ``EncodedQuery`` evaluated on records as the Table API returns them, with the local instance's semantics:
/// the runner's second opinion on the records an instance says match a write's query.
///
/// Text compares without regard to ASCII case for `=`, `!=`, `IN` and `NOT IN` on string and choice fields (the
/// platform's default collation; a `sys_id` as written), and byte by byte for `<`, `>` and `BETWEEN`; `LIKE`,
/// `STARTSWITH`, `ENDSWITH` and their negations ignore ASCII case. Integers and decimals compare as numbers,
/// booleans as `true`/`false`, dates and date-times as their UTC text, references as sys_ids. A dot-walked field
/// (`caller_id.name`) is read from the record under that key, as `sysparm_fields=caller_id.name` returns it, and an
/// empty reference on the way matches only the conditions an empty value matches (`!=`, `NOT LIKE`, `ISEMPTY`, ...),
/// as the platform's outer join does.
///
/// A condition the instance ignores (a value that is not of the field's type, such as `state=Resolved` on an
/// integer field, or a field the table does not have) is evaluated for what it says: no integer equals
/// `Resolved`, a field the table lacks is empty. The records an instance returned for a query that it partly
/// ignored then fail the predicate, and ``unmet(in:)`` names the condition.
///
/// Where a real instance could legitimately answer otherwise, the predicate refuses rather than guesses
/// (``Refusal``): a field of a type it does not know, `JOIN` and `RLQUERY`, an operator the local instance does not
/// run, a date that depends on the session user's time zone when that zone is not known, a keyword search.
///
/// ```swift
/// let predicate = try RecordPredicate(
///     try EncodedQuery.parse("active=true^priority<=2"), table: "incident",
///     clock: .init(now: Date(), timeZone: nil)) { field, table in types[table]?[field] }
/// let keep = try records.filter { try predicate.matches($0) }
/// ```
package struct RecordPredicate: Sendable {
    /// What dates relative to now are computed from.
    package struct Clock: Sendable {
        package var now: Date
        /// The session user's time zone, in which the instance computes `javascript:gs.beginningOfToday()` and
        /// the like; nil when it is not known, and then a condition that needs it is refused.
        package var timeZone: TimeZone?

        package init(now: Date, timeZone: TimeZone?) {
            self.now = now
            self.timeZone = timeZone
        }
    }

    /// Why a query cannot be evaluated here: the condition as written and the reason.
    package struct Refusal: Error, Sendable, Hashable, CustomStringConvertible {
        package var condition: String
        package var reason: String

        package var description: String { "cannot check '\(condition)' itself: \(reason)" }
    }

    /// A clause (conditions joined by `^OR`) that a record does not satisfy.
    package struct Unmet: Sendable, Hashable {
        /// The clause as written (`state=Resolved`, `priority=1^ORurgency=1`).
        package var text: String
        /// Why an instance ignores the clause's condition, when it does (`state is an integer field, 'Resolved'
        /// is not an integer`).
        package var ignoredBecause: String?
        /// The keys of the record that the clause compares (`state`, `caller_id.name`), in order.
        package var keys: [String]
    }

    /// The table the query is on.
    package let table: String
    /// The keys the evaluation reads from each record, `sys_id` first: the fields the conditions name, and each
    /// reference a dot-walk goes through with its `.sys_id` (`caller_id`, `caller_id.sys_id`, `caller_id.name`).
    package let fields: [String]
    /// The groups (joined by `^NQ`) of clauses (joined by `^`) of terms (joined by `^OR`).
    let groups: [[[Term]]]

    /// Compiles `query` over `table`, whose fields `fieldType(field, table)` gives (nil: the table has no such
    /// field).
    ///
    /// - Throws: ``Refusal`` for the first condition that cannot be evaluated here.
    package init(
        _ query: EncodedQuery, table: String, clock: Clock,
        fieldType: (_ field: String, _ table: String) -> FieldType?
    ) throws(Refusal) {
        self.table = table
        var compiler = TermCompiler(table: table, clock: clock)
        var groups: [[[Term]]] = []
        for group in query.groups {
            var clauses: [[Term]] = []
            for clause in group.clauses {
                var terms: [Term] = []
                for term in clause.terms { terms.append(try compiler.compile(term, types: fieldType)) }
                clauses.append(terms)
            }
            groups.append(clauses)
        }
        self.groups = groups
        fields = compiler.keys
    }

    /// The conditions an instance ignores, each as `'text': reason` in the order written (`'state=Resolved': state
    /// is an integer field, 'Resolved' is not an integer`), as the local instance logs them.
    package var ignoredConditions: [String] {
        groups.joined().joined().compactMap { term in term.ignoredBecause.map { "'\(term.text)': \($0)" } }
    }

    /// Whether `record` satisfies the query.
    ///
    /// - Throws: ``Refusal`` when the record lacks a key of ``fields``.
    package func matches(_ record: JSONObject) throws(Refusal) -> Bool {
        try unmet(in: record) == nil
    }

    /// The clause `record` does not satisfy, nil when it satisfies the query. When the query has several groups
    /// (`^NQ`), the clause is the first group's; a clause whose condition an instance ignores is named before
    /// another.
    ///
    /// - Throws: ``Refusal`` when the record lacks a key of ``fields``.
    package func unmet(in record: JSONObject) throws(Refusal) -> Unmet? {
        if groups.isEmpty { return nil }
        var first: [[Term]] = []
        for (index, group) in groups.enumerated() {
            var failed: [[Term]] = []
            for clause in group {
                var satisfied = false
                for term in clause where try term.holds(for: record) {
                    satisfied = true
                    break
                }
                if !satisfied { failed.append(clause) }
            }
            if failed.isEmpty { return nil }
            if index == 0 { first = failed }
        }
        let clause = first.first { $0.contains { $0.ignoredBecause != nil } } ?? first[0]
        var keys: [String] = []
        for term in clause where !keys.contains(term.leafKey) && !term.leafKey.isEmpty { keys.append(term.leafKey) }
        return Unmet(
            text: clause.map(\.text).joined(separator: "^OR"),
            ignoredBecause: clause.lazy.compactMap(\.ignoredBecause).first, keys: keys)
    }

    /// The text of `key` in `record` as the Table API gives it, read as ``NowRecord`` reads a field: a plain
    /// value, or a field object's `value`; `""` for null; nil when the record has no such field.
    package static func text(of key: String, in record: JSONObject) -> String? {
        NowRecord(json: record).value(key)
    }
}
