import NowData

import Foundation

/// Translates an ``EncodedQuery`` into SQL fragments over the local instance's tables, so that SQLite does the
/// filtering and sorting.
///
/// Every value is a bound parameter; the only names written into the SQL are field and table names that the
/// schema confirmed, always double-quoted. A condition that does not fit the schema (unknown field, a value
/// of the wrong type) is ignored with a warning, as the platform does, or, with `invalidQueryReturnsNoRows`
/// (the platform's `glide.invalid_query.returns_no_rows`), makes the whole query match nothing. An `ORDERBY` on
/// an unknown field is ignored with a warning either way.
///
/// `JOIN` and `RLQUERY` conditions become correlated subqueries (`EXISTS (...)`, `(SELECT count(*) ...) > 0`)
/// over their table under an alias, whose conditions are translated the same way.
///
/// ```swift
/// let translator = SQLQueryTranslator(schema: dictionary, invalidQueryReturnsNoRows: false)
/// let sql = translator.translate(try EncodedQuery.parse("active=true^priority<=2"), table: "incident")
/// // sql.whereClause == #""active" = ? AND "priority" <= ?"#, sql.parameters == [.integer(1), .integer(2)]
/// ```
struct SQLQueryTranslator: Sendable {
    let schema: any QuerySchema
    let invalidQueryReturnsNoRows: Bool
    /// The clock that `ONToday` (and `Yesterday`, `Tomorrow`) reads, as a UTC day, and the date helpers.
    let now: @Sendable () -> Date
    /// The time zone the date helpers (`javascript:gs.beginningOfToday()`) are computed in: the session user's, as
    /// on the platform (midnight in the user's zone, as the UTC instant stored values are compared with).
    private(set) var timeZone: TimeZone = .gmt

    init(schema: any QuerySchema, invalidQueryReturnsNoRows: Bool, now: @escaping @Sendable () -> Date = { Date() }) {
        self.schema = schema
        self.invalidQueryReturnsNoRows = invalidQueryReturnsNoRows
        self.now = now
    }

    /// This translator, computing date helpers in `zone`.
    func computingDates(in zone: TimeZone) -> SQLQueryTranslator {
        var translator = self
        translator.timeZone = zone
        return translator
    }

    /// The SQL for `query` over `table`.
    func translate(_ query: EncodedQuery, table: String) -> TranslatedQuery {
        var context = Context()
        let condition = whereClause(query, table: table, row: table.quotedIdentifier, &context)
        var warnings = context.warnings
        let invalidConditions = !warnings.isEmpty
        let orderBy = ordering(query.ordering, table: table, warnings: &warnings)
        let lines = warnings.map(\.description)
        if invalidQueryReturnsNoRows, invalidConditions {
            return TranslatedQuery(whereClause: "0", parameters: [], orderBy: orderBy, warnings: lines)
        }
        return TranslatedQuery(
            whereClause: condition.sql, parameters: condition.parameters, orderBy: orderBy, warnings: lines)
    }

    /// What translating one query collects beside its SQL: the warnings, and how many subquery aliases were given.
    struct Context {
        var warnings: [QueryWarning] = []
        var aliases = 0

        /// A new alias for the table of a `JOIN` or `RLQUERY` subquery.
        mutating func alias() -> String {
            aliases += 1
            return "_sub\(aliases)".quotedIdentifier
        }
    }

    /// The condition of `query` over `table`, whose current row `row` names (the table itself, or the alias of a
    /// subquery's table); empty SQL when every row matches.
    func whereClause(_ query: EncodedQuery, table: String, row: String, _ context: inout Context) -> Fragment {
        var parameters: [SQLValue] = []
        var groups: [String] = []
        var everyRow = query.groups.isEmpty
        for group in query.groups {
            var clauses: [String] = []
            for clause in group.clauses {
                var terms: [String] = []
                for term in clause.terms {
                    switch condition(term, table: table, row: row, &context) {
                    case .success(let fragment):
                        terms.append(fragment.sql)
                        parameters += fragment.parameters
                    case .failure(let invalid):
                        context.warnings.append(
                            QueryWarning(
                                kind: invalidQueryReturnsNoRows ? .conditionMatchesNoRows : .ignoredCondition,
                                text: invalid.text, reason: invalid.reason,
                                passwordField: passwordField(in: term, table: table)))
                    }
                }
                if terms.count == 1 {
                    clauses.append(terms[0])
                } else if terms.count > 1 {
                    clauses.append("(" + Self.joined(terms, "OR") + ")")
                }
            }
            if clauses.isEmpty {
                everyRow = true
            } else {
                groups.append(Self.joined(clauses, "AND"))
            }
        }
        if everyRow { return Fragment(sql: "", parameters: []) }
        let sql = groups.count == 1 ? groups[0] : Self.joined(groups.map { "(" + $0 + ")" }, "OR")
        return Fragment(sql: sql, parameters: parameters)
    }

    /// The most operands joined flat by one `AND` or `OR`: longer lists are split into parenthesized chunks, so
    /// that the expression stays far below SQLite's depth limit (1000) whatever the number of conditions.
    static let flatOperands = 64

    /// `parts` joined by `op`, in chunks of at most ``flatOperands``.
    static func joined(_ parts: [String], _ op: String) -> String {
        if parts.count <= flatOperands { return parts.joined(separator: " \(op) ") }
        let chunks = stride(from: 0, to: parts.count, by: flatOperands).map { start in
            "(" + parts[start..<min(start + flatOperands, parts.count)].joined(separator: " \(op) ") + ")"
        }
        return joined(chunks, op)
    }
}
