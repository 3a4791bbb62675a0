import NowData

extension SQLQueryTranslator {
    /// The `ORDER BY` terms. A reference sorts by its target's display field when the schema names one (as the
    /// platform sorts by display value), a dot-walked field (`caller_id.name`) sorts through correlated subqueries
    /// on `"table"."field"`, so the statement must select `FROM "table"` without an alias.
    func ordering(_ terms: [EncodedQuery.Ordering], table: String, warnings: inout [QueryWarning]) -> String {
        var sql: [String] = []
        for term in terms {
            do {
                sql.append(try sortExpression(term.field, table: table) + (term.descending ? " DESC" : " ASC"))
            } catch {
                let written = (term.descending ? "ORDERBYDESC" : "ORDERBY") + term.field
                warnings.append(QueryWarning(kind: .ignoredOrder, text: written, reason: error.reason))
            }
        }
        return sql.joined(separator: ", ")
    }

    private func sortExpression(_ field: String, table: String) throws(Mismatch) -> String {
        if field.isEmpty { throw Mismatch(reason: "no field") }
        let walked = schema.walk(FieldPath(field), from: table)
        guard let leaf = walked.leaf else { throw Mismatch(reason: walked.reason ?? "no field") }
        var expression = walked.path.first.quotedIdentifier
        var depth = 0
        func walk(to target: String, field name: String) {
            depth += 1
            let alias = "_sort\(depth)".quotedIdentifier
            let reference = depth == 1 ? "\(table.quotedIdentifier).\(expression)" : expression
            expression =
                "(SELECT \(alias).\(name.quotedIdentifier) FROM \(target.quotedIdentifier) AS \(alias)"
                + " WHERE \(alias).\"sys_id\" = \(reference))"
        }
        for (index, step) in walked.steps.enumerated().dropFirst() {
            walk(to: step.table, field: walked.path.components[index])
        }
        if case .reference(let target) = leaf.field, let display = schema.displayField(of: target) {
            walk(to: target, field: display)
        }
        return expression
    }
}
