import Foundation

/// What an aggregate call computes (the Aggregate API's `sysparm_` parameters): a count, sums, averages,
/// minimums and maximums of the records a filter selects, over the whole selection or per group.
///
/// ```swift
/// let query = NowAggregateQuery(filter: Filter(query: "active=true"), count: true, groupBy: ["priority"])
/// ```
public struct NowAggregateQuery: Sendable, Hashable {
    /// The records to aggregate; nil: every record.
    public var filter: Filter?
    /// Whether to count the records (`sysparm_count`).
    public var count: Bool
    /// The fields to sum (`sysparm_sum_fields`).
    public var sumFields: [FieldName]
    /// The fields to average (`sysparm_avg_fields`).
    public var averageFields: [FieldName]
    /// The fields whose minimum to find (`sysparm_min_fields`).
    public var minFields: [FieldName]
    /// The fields whose maximum to find (`sysparm_max_fields`).
    public var maxFields: [FieldName]
    /// The fields to group by (`sysparm_group_by`); empty: one result for the whole selection.
    public var groupBy: [FieldName]
    /// The groups to keep (`sysparm_having`), such as `count^sys_id^>^1`.
    public var having: String?
    /// How to order the groups (`sysparm_order_by`), such as `COUNT^DESC`.
    public var orderBy: String?
    /// Whether the groups' values come with their display values (`sysparm_display_value=true`).
    public var displayValue: Bool

    /// An aggregate query.
    public init(
        filter: Filter? = nil, count: Bool = true, sumFields: [FieldName] = [], averageFields: [FieldName] = [],
        minFields: [FieldName] = [], maxFields: [FieldName] = [], groupBy: [FieldName] = [], having: String? = nil,
        orderBy: String? = nil, displayValue: Bool = false
    ) {
        self.filter = filter
        self.count = count
        self.sumFields = sumFields
        self.averageFields = averageFields
        self.minFields = minFields
        self.maxFields = maxFields
        self.groupBy = groupBy
        self.having = having
        self.orderBy = orderBy
        self.displayValue = displayValue
    }

    /// The `sysparm_` query items this query stands for.
    public var queryItems: [URLQueryItem] {
        var items = filter?.queryItems ?? []
        if count { items.append(URLQueryItem(name: "sysparm_count", value: "true")) }
        for (name, fields) in [
            ("sysparm_sum_fields", sumFields), ("sysparm_avg_fields", averageFields),
            ("sysparm_min_fields", minFields), ("sysparm_max_fields", maxFields), ("sysparm_group_by", groupBy),
        ] where !fields.isEmpty {
            items.append(URLQueryItem(name: name, value: fields.joined(separator: ",")))
        }
        if let having { items.append(URLQueryItem(name: "sysparm_having", value: having)) }
        if let orderBy { items.append(URLQueryItem(name: "sysparm_order_by", value: orderBy)) }
        if displayValue { items.append(URLQueryItem(name: "sysparm_display_value", value: DisplayValueMode.display.rawValue)) }
        return items
    }
}
