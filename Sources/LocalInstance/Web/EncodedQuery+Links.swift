import NowData

/// An encoded query changed for the list view's links (a condition added or removed, another sort), printed by
/// NowData's printer (``EncodedQuery/text``).
extension EncodedQuery {
    /// The query with `condition` (encoded-query text) added as one more clause, before the sort terms.
    func text(adding condition: String) -> String {
        ([conditionsText, condition].filter { !$0.isEmpty } + ordering.map(\.text)).joined(separator: "^")
    }

    /// The text of the query's conditions sorted by `field` alone.
    func text(sortedBy field: String, descending: Bool) -> String {
        EncodedQuery(groups: groups, ordering: [Ordering(field: field, descending: descending)]).text
    }

    /// The query without the term at `term` of clause `clause` of group `group` (an emptied clause or group goes
    /// too).
    func removing(group: Int, clause: Int, term: Int) -> EncodedQuery {
        var query = self
        query.groups[group].clauses[clause].terms.remove(at: term)
        if query.groups[group].clauses[clause].terms.isEmpty { query.groups[group].clauses.remove(at: clause) }
        if query.groups[group].clauses.isEmpty { query.groups.remove(at: group) }
        return query
    }

    /// The query without its sort term at `index`.
    func removingOrdering(_ index: Int) -> EncodedQuery {
        var query = self
        query.ordering.remove(at: index)
        return query
    }
}
