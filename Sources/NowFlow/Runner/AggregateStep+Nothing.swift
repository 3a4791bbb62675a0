import NowData

/// What an aggregate gives when its filter selects no record, without asking the instance.
extension AggregateStep {
    /// The result and line of the aggregate over no record, said why (`reason`).
    func overNothing(table: String, _ reason: String) -> (StepResult, String) {
        guard groupBy.isEmpty else {
            return (
                .aggregate(.object(["groups": .array([]), "count": 0])),
                "0 groups of \(table) by \(groupBy.joined(separator: ", ")): \(reason)"
            )
        }
        func none(_ fields: [String]) -> [FieldName: String] {
            Dictionary(fields.map { ($0, "") }, uniquingKeysWith: { first, _ in first })
        }
        let stats = NowAggregateResult.Stats(
            count: count ? 0 : nil, sum: none(sum), average: none(average), min: none(min), max: none(max))
        return (.aggregate(.object(["stats": stats.json])), "\(count ? "0" : "the") \(table) records: \(reason)")
    }
}
