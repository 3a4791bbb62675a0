import NowData

extension NowAggregateResult.Stats {
    /// The statistics as an aggregate step's result gives them: `{count: 12, sum: {field: "7"}, avg: {...},
    /// min: {...}, max: {...}}`, the empty parts left out.
    var json: JSONValue {
        var object = JSONObject()
        if let count { object["count"] = .number(JSONNumber(count)) }
        for (key, values) in [("sum", sum), ("avg", average), ("min", min), ("max", max)]
        where !values.isEmpty {
            object[key] = .object(JSONObject(values.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.string($0.value)) }))
        }
        return .object(object)
    }
}
