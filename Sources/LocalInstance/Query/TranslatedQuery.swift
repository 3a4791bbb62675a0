/// An encoded query as SQL fragments for a `SELECT ... FROM "table"`, ready to bind.
struct TranslatedQuery: Sendable, Hashable {
    /// The condition after `WHERE` (without the keyword), with `?` placeholders; empty when every row matches.
    var whereClause: String
    /// The values for the placeholders of `whereClause`, in order.
    var parameters: [SQLValue]
    /// The terms after `ORDER BY` (without the keyword), e.g. `"sys_created_on" DESC, "number" ASC`; empty for none.
    var orderBy: String
    /// One line per invalid part, for the log, saying what was done with it (``QueryWarning``), e.g.
    /// `ignored invalid condition 'foo=bar': incident has no field 'foo'`, or with `invalidQueryReturnsNoRows`
    /// `invalid condition 'foo=bar' makes the query match no rows: incident has no field 'foo'`; a condition on a
    /// password field without its text.
    var warnings: [String]
}

extension TranslatedQuery {
    /// Keeps only the rows that also meet `clause` (with its own `?` placeholders and `values`).
    mutating func restrict(to clause: String, _ values: [SQLValue]) {
        whereClause = whereClause.isEmpty ? clause : "(\(whereClause)) AND (\(clause))"
        parameters += values
    }
}
