import Foundation

/// An encoded query that selects records, sent as `sysparm_query`.
///
/// ```swift
/// let filter = Filter(query: "active=true^priority<=2^ORDERBYDESCsys_created_on")
/// ```
public struct Filter: Sendable, Hashable {
    /// The encoded query, such as `active=true^short_descriptionLIKEprinter`.
    public var query: String
    /// The query category (`sysparm_query_category`), if any.
    public var queryCategory: String?

    /// A filter from an encoded query.
    public init(query: String, queryCategory: String? = nil) {
        self.query = query
        self.queryCategory = queryCategory
    }

    /// The `sysparm_` query items this filter stands for.
    public var queryItems: [URLQueryItem] {
        var items: [URLQueryItem] = []
        if !query.isEmpty { items.append(URLQueryItem(name: "sysparm_query", value: query)) }
        if let queryCategory { items.append(URLQueryItem(name: "sysparm_query_category", value: queryCategory)) }
        return items
    }
}
