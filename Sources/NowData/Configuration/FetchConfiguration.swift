import Foundation

/// How to fetch records: which ones, how many a page, which fields and in what form.
///
/// ```swift
/// let readConfig = FieldReadConfiguration(includeFields: ["number"], options: [])
/// let config = FetchConfiguration(Filter(query: "active=true"), 50, readConfig)
/// ```
public struct FetchConfiguration: Sendable, Hashable {
    /// The page size a paginator uses when ``limit`` is nil, as in the SDK.
    public static let defaultPageSize = 20

    /// The records to return; nil returns every record.
    public var filter: Filter?
    /// The number of records per page or response; nil leaves it to the instance (and a paginator to 20).
    public var limit: Int?
    /// The fields to return and their form; nil returns every field as stored values.
    public var readConfiguration: FieldReadConfiguration?
    /// Whether the instance may skip counting the matching records (`sysparm_no_count=true`: no `X-Total-Count`),
    /// for a reader that pages by key and needs no total: on a large table the count costs more than the page.
    public var skipsCount = false

    /// A fetch configuration.
    public init(filter: Filter? = nil, limit: Int? = nil, readConfiguration: FieldReadConfiguration? = nil) {
        self.filter = filter
        self.limit = limit
        self.readConfiguration = readConfiguration
    }

    /// The positional form of the SDK's examples: `FetchConfiguration(Filter(query: q), limit, readConfig)`.
    public init(_ filter: Filter?, _ limit: Int?, _ readConfiguration: FieldReadConfiguration?) {
        self.init(filter: filter, limit: limit, readConfiguration: readConfiguration)
    }

    /// The `sysparm_` query items of this configuration, `sysparm_limit` included when set.
    public var queryItems: [URLQueryItem] {
        var items = filter?.queryItems ?? []
        if let limit { items.append(URLQueryItem(name: "sysparm_limit", value: String(limit))) }
        items += readConfiguration?.queryItems ?? []
        if skipsCount { items.append(URLQueryItem(name: "sysparm_no_count", value: "true")) }
        return items
    }
}
