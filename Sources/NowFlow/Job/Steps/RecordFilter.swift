/// Which records a query, update or delete concerns: an encoded `query` or a `where` mapping.
enum RecordFilter: Sendable, Hashable {
    case query(Template)
    case matching(WhereClause)
}
