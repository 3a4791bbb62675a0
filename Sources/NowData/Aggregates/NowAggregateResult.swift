import Foundation

/// The answer of an aggregate call: the statistics of the whole selection, or one ``Group`` per group.
public struct NowAggregateResult: Sendable, Hashable {
    /// The statistics of a selection or a group. Values are the instance's text (`"3.75"`), by field.
    public struct Stats: Sendable, Hashable {
        /// The number of records, when counted.
        public var count: Int?
        /// The sums, by field.
        public var sum: [FieldName: String] = [:]
        /// The averages, by field.
        public var average: [FieldName: String] = [:]
        /// The minimums, by field.
        public var min: [FieldName: String] = [:]
        /// The maximums, by field.
        public var max: [FieldName: String] = [:]

        /// Statistics with the given values.
        public init(
            count: Int? = nil, sum: [FieldName: String] = [:], average: [FieldName: String] = [:],
            min: [FieldName: String] = [:], max: [FieldName: String] = [:]
        ) {
            self.count = count
            self.sum = sum
            self.average = average
            self.min = min
            self.max = max
        }
    }

    /// One value of a group's field.
    public struct GroupField: Sendable, Hashable {
        /// The field, such as `priority`.
        public var field: FieldName
        /// Its value in the group, such as `1`.
        public var value: String
        /// Its display value, when asked for.
        public var displayValue: String?

        /// A group field.
        public init(field: FieldName, value: String, displayValue: String? = nil) {
            self.field = field
            self.value = value
            self.displayValue = displayValue
        }
    }

    /// One group: its field values and statistics.
    public struct Group: Sendable, Hashable {
        /// The values of the group-by fields, in their order.
        public var fields: [GroupField]
        /// The group's statistics.
        public var stats: Stats

        /// A group.
        public init(fields: [GroupField], stats: Stats) {
            self.fields = fields
            self.stats = stats
        }
    }

    /// The statistics of the whole selection; nil when the query grouped.
    public var stats: Stats?
    /// The groups, in the instance's order; empty when the query did not group.
    public var groups: [Group]

    /// A result.
    public init(stats: Stats?, groups: [Group]) {
        self.stats = stats
        self.groups = groups
    }

    /// The result in an Aggregate API body (`{"result":{"stats":...}}` or `{"result":[{"stats","groupby_fields"}]}`).
    init(body: Data) throws {
        let root: JSONValue
        do {
            root = try JSONValue(json: body)
        } catch {
            throw NowDataError.cannotParseResponse
        }
        switch root["result"] {
        case .object(let object)?:
            self.init(stats: try Self.stats(object["stats"]), groups: [])
        case .array(let elements)?:
            self.init(
                stats: nil,
                groups: try elements.map { element in
                    var fields: [GroupField] = []
                    for case .object(let field) in element["groupby_fields"]?.array ?? [] {
                        guard let name = field["field"]?.string, let value = field["value"]?.string else {
                            throw NowDataError.cannotParseResponse
                        }
                        fields.append(GroupField(field: name, value: value, displayValue: field["display_value"]?.string))
                    }
                    return Group(fields: fields, stats: try Self.stats(element["stats"]))
                })
        default:
            throw NowDataError.cannotParseResponse
        }
    }

    private static func stats(_ value: JSONValue?) throws -> Stats {
        guard case .object(let object)? = value else { throw NowDataError.cannotParseResponse }
        func values(_ key: String) -> [FieldName: String] {
            var values: [FieldName: String] = [:]
            for (field, value) in object[key]?.object ?? JSONObject() { values[field] = value.string ?? "" }
            return values
        }
        return Stats(
            count: object["count"]?.string.flatMap { Int($0) }, sum: values("sum"), average: values("avg"),
            min: values("min"), max: values("max"))
    }
}
