import Foundation

extension EncodedQuery {
    /// The query as encoded-query text, which ``parse(_:)`` reads back to the same query: groups joined by `^NQ`,
    /// clauses by `^`, the terms of a clause by `^OR`, then the sort terms.
    ///
    /// One rule for `^` inside a value (or a table or field name), shared with the parser: it is written `^^`
    /// (``escaped(_:)``). The platform documents no escape for `^`, so the runner refuses such values before they
    /// reach an instance; the local instance reads `^^` as a literal `^`.
    ///
    /// Two spellings read back as another operator, as the syntax has no way to tell them apart: a `<` or `>`
    /// condition whose value starts with `=` (read as `<=`, `>=`), and an `IN` condition whose value starts with
    /// `STANCEOF` or `_HIERARCHY`. A term whose field starts with a keyword (`OR`, `NQ`, `RLQUERY`, `JOIN`) reads
    /// back as that keyword.
    ///
    /// ```swift
    /// let query = EncodedQuery(groups: [.init(clauses: [.init(terms: [.condition(.init(field: "active", op: .equals, value: "true"))])])])
    /// query.text // "active=true"
    /// ```
    package var text: String {
        let conditions = [conditionsText].filter { !$0.isEmpty }
        // After an RLQUERY left open (the last term), a sort term would read back as inside it: they go first.
        return (leavesRelatedListOpen ? ordering.map(\.text) + conditions : conditions + ordering.map(\.text))
            .joined(separator: "^")
    }

    /// Whether the query ends with an `RLQUERY` that no `ENDRLQUERY` closed.
    private var leavesRelatedListOpen: Bool {
        if case .invalid(_, EncodedQuery.unclosedRelatedList) = groups.last?.clauses.last?.terms.last { return true }
        return false
    }

    /// The conditions alone, without the sort terms.
    package var conditionsText: String {
        groups.map { group in
            group.clauses.map { clause in clause.terms.map(Self.text).joined(separator: "^OR") }.joined(separator: "^")
        }.joined(separator: "^NQ")
    }

    /// The text of one term.
    package static func text(_ term: Term) -> String {
        switch term {
        case .condition(let condition):
            escaped(condition.field) + condition.op.rawValue + escaped(condition.value)
        case .join(let join):
            // The `!` even before no conditions: the parser takes no JOIN without it.
            "JOIN\(escaped(join.table)).\(escaped(join.field))=\(escaped(join.joinTable)).\(escaped(join.joinField))!"
                + join.query.conditionsText
        case .relatedList(let related):
            "RLQUERY\(escaped(related.table)).\(escaped(related.field)),\(related.comparison.rawValue)\(related.count)"
                + (related.stopsAtRelationship ? ",m2m" : "")
                + (related.query.groups.isEmpty ? "" : "^" + related.query.conditionsText) + "^ENDRLQUERY"
        case .invalid(let text, let reason):
            // A malformed RLQUERY was closed by its ENDRLQUERY: without it, the header would read back as an
            // RLQUERY left open, holding the terms after it.
            escaped(text) + (reason == EncodedQuery.malformedRelatedList ? "^ENDRLQUERY" : "")
        }
    }

    /// `value` with each `^` written `^^`, as ``parse(_:)`` reads it back: scalar by scalar, as the parser reads
    /// bytes (a `^` that a combining mark follows is one `Character` with it, which a `String` replacement passes).
    package static func escaped(_ value: String) -> String {
        guard value.utf8.contains(UInt8(ascii: "^")) else { return value }
        var escaped = String.UnicodeScalarView()
        for scalar in value.unicodeScalars {
            escaped.append(scalar)
            if scalar == "^" { escaped.append(scalar) }
        }
        return String(escaped)
    }
}

extension EncodedQuery.Ordering {
    /// `ORDERBYfield` or `ORDERBYDESCfield`.
    package var text: String {
        (descending ? "ORDERBYDESC" : "ORDERBY") + EncodedQuery.escaped(field)
    }
}
