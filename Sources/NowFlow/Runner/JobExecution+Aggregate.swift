import NowData

/// The `aggregate` step, through NowData's `NowTableService.aggregate` (the Aggregate API).
extension JobExecution {
    /// Result: `stats` (`count`, a number; `sum`, `avg`, `min`, `max`: the instance's texts by field) for the
    /// whole selection, or with `group_by:` `groups` (each `{group: {field: value}, stats}`) and `count`.
    func perform(_ step: AggregateStep, scope: Scope) async throws(StepFailure) -> (JSONValue, String) {
        let table = try text(step.table, "table", scope: scope)
        let query = try encodedQuery(step.filter, table: table, scope: scope)
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
            return (.object(["stats": Self.json(stats)]), "\(counted)\(query.isEmpty ? "" : " matching '\(query)'")")
        }
        let groups: [JSONValue] = result.groups.map { group in
            let fields = group.fields.map { field in
                (field.field, JSONValue.string(step.displayValue ? field.displayValue ?? field.value : field.value))
            }
            return .object(["group": .object(JSONObject(fields)), "stats": Self.json(group.stats)])
        }
        let count = groups.count
        return (
            .object(["groups": .array(groups), "count": .number(JSONNumber(count))]),
            "\(count) group\(count == 1 ? "" : "s") of \(table) by \(step.groupBy.joined(separator: ", "))"
        )
    }

    /// `{count: 12, sum: {field: "7"}, avg: {...}, min: {...}, max: {...}}`, the empty parts left out.
    private static func json(_ stats: NowAggregateResult.Stats) -> JSONValue {
        var object = JSONObject()
        if let count = stats.count { object["count"] = .number(JSONNumber(count)) }
        for (key, values) in [("sum", stats.sum), ("avg", stats.average), ("min", stats.min), ("max", stats.max)]
        where !values.isEmpty {
            object[key] = .object(JSONObject(values.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.string($0.value)) }))
        }
        return .object(object)
    }
}
