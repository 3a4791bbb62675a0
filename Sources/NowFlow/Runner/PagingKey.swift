import NowData

/// The sort a keyed read pages by, and the condition that selects the records after one record in it.
///
/// The sort is the query's own (`order_by:`, `order_by_desc:`, its `ORDERBY` terms) with `sys_id` ascending
/// after it as the tie-breaker, so that every record has one place in it. The records after a record whose sort
/// values are v1 ... vn (its sys_id last) are those after v1 in the first field, or equal to v1 there and after v2
/// in the second, and so on: one `^NQ` group each, each repeating the query's own conditions (each of its groups,
/// when it has several). Sorted by `number`, the page after INC0010042 asks
/// `WHERE^number>INC0010042^NQWHERE^number>=INC0010042^number<=INC0010042^sys_id>LAST^ORDERBYnumber^ORDERBYsys_id`.
///
/// - Equal is `f>=v^f<=v`, not `f=v`: the local instance compares `=` on text without letter case but sorts and
///   compares `<` and `>` byte by byte (the platform's collation ignores case in all three), and the pair agrees
///   with the sort either way.
/// - An empty value sorts first, ascending, and last, descending (SQL's NULL, on the platform and in the local
///   instance, which stores an empty value as NULL): equal to empty is `fISEMPTY`; after empty, ascending,
///   `fISNOTEMPTY`; after v, descending, `f<v^ORfISEMPTY`; nothing is after empty, descending.
///
/// The values are the records' stored values (not display values, not the job's date format), and each goes
/// through the checks of a `where:` value before it is sent.
struct PagingKey: Sendable {
    /// The sort terms, `sys_id` last.
    let ordering: [EncodedQuery.Ordering]

    /// The key of a query sorted by `ordering`: its terms up to `sys_id` (a term after it changes nothing, a
    /// field sorted twice counts once), then `sys_id` ascending unless it sorts by it.
    init(sortingBy ordering: [EncodedQuery.Ordering]) {
        var terms: [EncodedQuery.Ordering] = []
        for term in ordering where !terms.contains(where: { $0.field == term.field }) {
            terms.append(term)
            if term.field == "sys_id" { break }
        }
        if terms.last?.field != "sys_id" { terms.append(EncodedQuery.Ordering(field: "sys_id", descending: false)) }
        self.ordering = terms
    }

    /// The sort fields but `sys_id`.
    var sortFields: [String] { ordering.dropLast().map(\.field) }

    /// `sys_id`, `number and sys_id`, `priority descending, number and sys_id`: the key on the step's line.
    var description: String {
        let names = ordering.map { $0.field + ($0.descending ? " descending" : "") }
        return names.count == 1 ? names[0] : names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
    }

    /// The record's stored values of the sort fields, in the key's order; nil when it lacks one, or its sys_id is
    /// empty.
    func values(of record: NowRecord) -> [String]? {
        var values: [String] = []
        for term in ordering {
            guard let value = record.value(term.field) else { return nil }
            values.append(value)
        }
        return values.last?.isEmpty == false ? values : nil
    }

    /// `query` narrowed to the records after `values` (one per sort term, as ``values(of:)`` reads them): each of
    /// its groups (one with no condition, when it has none) repeated with each group of the key's condition.
    ///
    /// - Throws: a value a `where:` value could not be (a `^`, a line break, `javascript:`), or one that starts
    ///   with `=`, which the encoded query would read as part of a `>` or `<`.
    func query(_ query: EncodedQuery, after values: [String]) throws(QueryBuildError) -> EncodedQuery {
        var narrowed = query
        let own = query.groups.isEmpty ? [EncodedQuery.Group(clauses: [])] : query.groups
        narrowed.groups = try groups(after: values).flatMap { after in
            own.map { EncodedQuery.Group(clauses: $0.clauses + after) }
        }
        return narrowed
    }

    /// The groups of clauses that select the records after `values`: one a sort term.
    private func groups(after values: [String]) throws(QueryBuildError) -> [[EncodedQuery.Clause]] {
        var groups: [[EncodedQuery.Clause]] = []
        var equal: [EncodedQuery.Clause] = []
        for (term, value) in zip(ordering, values) {
            let described = "the \(term.field) of the last record read"
            let value = try EncodedQueryBuilder.checkedText(.string(value), describedAs: described)
            if value.utf8.first == UInt8(ascii: "=") {
                throw QueryBuildError(
                    message: "\(described) starts with '=', which an encoded query would read as part of the operator before it")
            }
            let field = term.field
            if value.isEmpty {
                if !term.descending { groups.append(equal + [Self.clause([(field, .isNotEmpty, "")])]) }
                equal.append(Self.clause([(field, .isEmpty, "")]))
            } else {
                let after: EncodedQuery.Clause =
                    term.descending
                    ? Self.clause([(field, .lessThan, value), (field, .isEmpty, "")])
                    : Self.clause([(field, .greaterThan, value)])
                groups.append(equal + [after])
                equal += [Self.clause([(field, .greaterThanOrEquals, value)]), Self.clause([(field, .lessThanOrEquals, value)])]
            }
        }
        return groups
    }

    /// A clause of the conditions joined by `^OR`.
    private static func clause(_ conditions: [(String, QueryOperator, String)]) -> EncodedQuery.Clause {
        EncodedQuery.Clause(terms: conditions.map { .condition(EncodedQuery.Condition(field: $0.0, op: $0.1, value: $0.2)) })
    }

    /// The most conditions a page's query holds (every value present, the largest case), for a query whose own
    /// conditions are `query`'s.
    func largestQuery(_ query: EncodedQuery) -> Int {
        let values = Array(repeating: "x", count: ordering.count)
        return (try? self.query(query, after: values).conditionCount) ?? 0
    }
}
