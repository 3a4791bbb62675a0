import NowData

/// An encoded query written back as text, for the list view's links (a condition removed, another sort).
extension EncodedQuery {
    /// The query as encoded-query text: groups joined by `^NQ`, clauses by `^`, terms by `^OR`, then the sort
    /// terms; a `^` in a value is written `^^`.
    var text: String {
        Self.joined(conditionsText, sortTexts)
    }

    /// The query with `condition` (encoded-query text) added as one more clause, before the sort terms.
    func text(adding condition: String) -> String {
        Self.joined([conditionsText, condition].filter { !$0.isEmpty }.joined(separator: "^"), sortTexts)
    }

    private var sortTexts: [String] {
        ordering.map { ($0.descending ? "ORDERBYDESC" : "ORDERBY") + $0.field }
    }

    /// The conditions alone, without the sort terms.
    var conditionsText: String {
        groups.map { group in
            group.clauses.map { clause in clause.terms.map(Self.text).joined(separator: "^OR") }.joined(separator: "^")
        }.joined(separator: "^NQ")
    }

    /// The text of the query's conditions sorted by `field` alone.
    func text(sortedBy field: String, descending: Bool) -> String {
        Self.joined(conditionsText, [(descending ? "ORDERBYDESC" : "ORDERBY") + field])
    }

    private static func joined(_ conditions: String, _ sorts: [String]) -> String {
        ([conditions].filter { !$0.isEmpty } + sorts).joined(separator: "^")
    }

    /// The text of one term.
    static func text(_ term: Term) -> String {
        switch term {
        case .condition(let condition):
            condition.field + condition.op.rawValue + condition.value.replacingOccurrences(of: "^", with: "^^")
        case .join(let join):
            "JOIN\(join.table).\(join.field)=\(join.joinTable).\(join.joinField)"
                + (join.query.groups.isEmpty ? "" : "!" + join.query.conditionsText)
        case .relatedList(let related):
            "RLQUERY\(related.table).\(related.field),\(related.comparison.rawValue)\(related.count)"
                + (related.stopsAtRelationship ? ",m2m" : "")
                + (related.query.groups.isEmpty ? "" : "^" + related.query.conditionsText) + "^ENDRLQUERY"
        case .invalid(let text, _):
            text.replacingOccurrences(of: "^", with: "^^")
        }
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
