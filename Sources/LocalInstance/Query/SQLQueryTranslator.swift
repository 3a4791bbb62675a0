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
/// ```swift
/// let translator = SQLQueryTranslator(schema: dictionary, invalidQueryReturnsNoRows: false)
/// let sql = translator.translate(try EncodedQuery.parse("active=true^priority<=2"), table: "incident")
/// // sql.whereClause == #""active" = ? AND "priority" <= ?"#, sql.parameters == [.integer(1), .integer(2)]
/// ```
struct SQLQueryTranslator: Sendable {
    let schema: any QuerySchema
    let invalidQueryReturnsNoRows: Bool
    /// The clock that `ONToday` (and `Yesterday`, `Tomorrow`) reads, as a UTC day.
    let now: @Sendable () -> Date

    init(schema: any QuerySchema, invalidQueryReturnsNoRows: Bool, now: @escaping @Sendable () -> Date = { Date() }) {
        self.schema = schema
        self.invalidQueryReturnsNoRows = invalidQueryReturnsNoRows
        self.now = now
    }

    /// The SQL for `query` over `table`.
    func translate(_ query: EncodedQuery, table: String) -> TranslatedQuery {
        var warnings: [String] = []
        var parameters: [SQLValue] = []
        var groups: [String] = []
        var everyRow = query.groups.isEmpty
        for group in query.groups {
            var clauses: [String] = []
            for clause in group.clauses {
                var terms: [String] = []
                for term in clause.terms {
                    switch condition(term, table: table) {
                    case .success(let fragment):
                        terms.append(fragment.sql)
                        parameters += fragment.parameters
                    case .failure(let invalid):
                        warnings.append(
                            invalidQueryReturnsNoRows
                                ? "invalid condition '\(invalid.text)' makes the query match no rows: \(invalid.reason)"
                                : "ignored invalid condition '\(invalid.text)': \(invalid.reason)")
                    }
                }
                if terms.count == 1 {
                    clauses.append(terms[0])
                } else if terms.count > 1 {
                    clauses.append("(" + terms.joined(separator: " OR ") + ")")
                }
            }
            if clauses.isEmpty {
                everyRow = true
            } else {
                groups.append(clauses.joined(separator: " AND "))
            }
        }
        let invalidConditions = !warnings.isEmpty
        let orderBy = ordering(query.ordering, table: table, warnings: &warnings)
        if invalidQueryReturnsNoRows, invalidConditions {
            return TranslatedQuery(whereClause: "0", parameters: [], orderBy: orderBy, warnings: warnings)
        }
        if everyRow {
            return TranslatedQuery(whereClause: "", parameters: [], orderBy: orderBy, warnings: warnings)
        }
        let whereClause =
            groups.count == 1 ? groups[0] : groups.map { "(" + $0 + ")" }.joined(separator: " OR ")
        return TranslatedQuery(whereClause: whereClause, parameters: parameters, orderBy: orderBy, warnings: warnings)
    }
}
