/// `aggregate`: a count, sums, averages, minimums and maximums of the records a filter selects, through the
/// Aggregate API, for the whole selection or per group.
struct AggregateStep: Sendable, Hashable {
    var table: Template
    var filter: RecordFilter?
    /// `count:`; true unless `count: false`.
    var count = true
    var sum: [String] = []
    var average: [String] = []
    var min: [String] = []
    var max: [String] = []
    var groupBy: [String] = []
    /// `having:`, such as `count^*^>^1`.
    var having: Template?
    /// `order_by:`, such as `COUNT^DESC`.
    var orderBy: Template?
    /// `display_value: true`: a group's values are their display values.
    var displayValue = false
}
