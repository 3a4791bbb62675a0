import NowData

/// The `aggregate` step, through NowData's `NowTableService.aggregate` (the Aggregate API).
extension JobExecution {
    /// Result: `stats` (`count`, a number; `sum`, `avg`, `min`, `max`: the instance's texts by field) for the
    /// whole selection, or with `group_by:` `groups` (each `{group: {field: value}, stats}`) and `count`.
    ///
    /// A filter that selects no record (a condition over an empty list) asks nothing of the instance: the result is
    /// what it gives for no record (a count of 0, `""` for each sum, average, minimum and maximum; no groups), and
    /// the line says why.
    func perform(_ step: AggregateStep, scope: Scope) async throws(StepFailure) -> (StepResult, String) {
        let table = try text(step.table, "table", scope: scope)
        let query: String
        switch try selection(step.filter, table: table, scope: scope) {
        case .query(let selected): query = selected.text
        case .nothing(let reason): return step.overNothing(table: table, reason)
        }
        let having = try step.having.map { template throws(StepFailure) in try text(template, "having", scope: scope) }
        let orderBy = try step.orderBy.map { template throws(StepFailure) in
            try text(template, "order_by", scope: scope)
        }
        let aggregate = NowAggregateQuery(
            filter: query.isEmpty ? nil : Filter(query: query), count: step.count, sumFields: step.sum,
            averageFields: step.average, minFields: step.min, maxFields: step.max, groupBy: step.groupBy,
            having: having, orderBy: orderBy, displayValue: step.displayValue)
        let result = try await calling { try await service.aggregate(table, aggregate) }
        guard !step.groupBy.isEmpty else {
            let stats = result.stats ?? NowAggregateResult.Stats()
            let counted = stats.count.map { "\($0) \(table) record\($0 == 1 ? "" : "s")" } ?? "the \(table) records"
            return (.aggregate(.object(["stats": stats.json])), "\(counted)\(query.isEmpty ? "" : " matching '\(query)'")")
        }
        let groups: [JSONValue] = result.groups.map { group in
            let fields = group.fields.map { field in
                (field.field, JSONValue.string(step.displayValue ? field.displayValue ?? field.value : field.value))
            }
            return .object(["group": .object(JSONObject(fields)), "stats": group.stats.json])
        }
        let count = groups.count
        return (
            .aggregate(.object(["groups": .array(groups), "count": .number(JSONNumber(count))])),
            "\(count) group\(count == 1 ? "" : "s") of \(table) by \(step.groupBy.joined(separator: ", "))"
        )
    }
}
