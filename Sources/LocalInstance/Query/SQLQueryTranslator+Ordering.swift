import NowData

extension SQLQueryTranslator {
    /// The `ORDER BY` terms. A reference sorts by its target's display field when the schema names one (as the
    /// platform sorts by display value), a dot-walked field (`caller_id.name`) sorts through correlated subqueries
    /// on `"table"."field"`, so the statement must select `FROM "table"` without an alias.
    func ordering(_ terms: [EncodedQuery.Ordering], table: String, warnings: inout [String]) -> String {
        var sql: [String] = []
        for term in terms {
            do {
                sql.append(try sortExpression(term.field, table: table) + (term.descending ? " DESC" : " ASC"))
            } catch {
                let written = (term.descending ? "ORDERBYDESC" : "ORDERBY") + term.field
                warnings.append("ignored invalid order '\(written)': \(error.reason)")
            }
        }
        return sql.joined(separator: ", ")
    }

    private func sortExpression(_ field: String, table: String) throws(Mismatch) -> String {
        if field.isEmpty { throw Mismatch(reason: "no field") }
        let path = field.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard var type = schema.fieldType(path[0], in: table) else {
            throw Mismatch(reason: "\(table) has no field '\(path[0])'")
        }
        var expression = path[0].quotedIdentifier
        var current = (table: table, field: path[0])
        var depth = 0
        func walk(to target: String, field name: String) {
            depth += 1
            let alias = "_sort\(depth)".quotedIdentifier
            let reference = depth == 1 ? "\(table.quotedIdentifier).\(expression)" : expression
            expression =
                "(SELECT \(alias).\(name.quotedIdentifier) FROM \(target.quotedIdentifier) AS \(alias)"
                + " WHERE \(alias).\"sys_id\" = \(reference))"
        }
        for name in path.dropFirst() {
            guard case .reference(let target) = type else {
                throw Mismatch(reason: "\(current.table).\(current.field) is not a reference, it cannot be dot-walked")
            }
            guard let next = schema.fieldType(name, in: target) else {
                throw Mismatch(reason: "\(target) has no field '\(name)'")
            }
            walk(to: target, field: name)
            type = next
            current = (target, name)
        }
        if case .reference(let target) = type, let display = schema.displayField(of: target) {
            walk(to: target, field: display)
        }
        return expression
    }
}
