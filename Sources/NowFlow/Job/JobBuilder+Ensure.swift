/// Reading an `ensure` step.
extension JobBuilder {
    /// `ensure: { table, match: {...} | query: "...", fields: {...}, state: present | absent }`.
    func ensure(_ node: YAMLNode) -> EnsureStep? {
        guard let pairs = mapping(node, "ensure") else { return nil }
        checkKeys(pairs, of: JobSchema.ensureParameters)
        let table = requiredTemplate(pairs, "table", in: "ensure", at: node.mark)
        if let tableNode = value(pairs, "table"), let name = table?.literal, !NameUse.isTableName(name) {
            error(at: tableNode.mark, "'\(name)' is not a table name (lowercase letters, digits and '_')")
        }
        let match = ensureMatch(pairs, at: node.mark)
        var state = EnsureStep.State.present
        if let stateNode = value(pairs, "state"), let given = text(stateNode, "ensure.state") {
            if let chosen = EnsureStep.State(rawValue: given) {
                state = chosen
            } else {
                error(at: stateNode.mark, "ensure.state must be present or absent, not '\(given)'")
            }
        }
        // Without fields:, a record is as it should be when it exists (a membership, say).
        var fields: [NamedTemplate] = []
        if let fieldsNode = value(pairs, "fields") {
            if state == .absent {
                error(at: fieldsNode.mark, "ensure with state: absent deletes the record it matches; it takes no fields:")
            }
            guard let given = recordFields(pairs, in: "ensure", at: node.mark) else { return nil }
            fields = given
        }
        guard let table, let match else { return nil }
        return EnsureStep(table: table, match: match, fields: fields, state: state, settings: writeSettings(pairs))
    }

    /// `match:` (a mapping) or `query:` (an encoded query), exactly one.
    private func ensureMatch(_ pairs: [YAMLNode.Pair], at mark: YAMLMark) -> RecordFilter? {
        let matchNode = value(pairs, "match")
        let queryNode = value(pairs, "query")
        if matchNode != nil, let queryNode {
            error(at: queryNode.mark, "ensure takes match: or query:, not both")
            return nil
        }
        if let queryNode { return encodedQuery(queryNode) }
        guard let matchNode else {
            error(at: mark, "ensure needs match: (field: value pairs that find the record) or query:")
            return nil
        }
        guard let conditions = equalities(matchNode, "match") else { return nil }
        guard !conditions.isEmpty else {
            error(at: matchNode.mark, "ensure's match: needs at least one field: value pair")
            return nil
        }
        return .matching(WhereClause(conditions: conditions))
    }
}
