/// The REST API a request is for, as the platform's rate-limit rules and transaction quotas tell them apart.
enum PlatformAPI: String, CaseIterable, Sendable {
    case table
    case importSet = "import_set"
    case aggregate
    case attachment
    case batch
    /// Any other API (the Change Management, Service Catalog, CMDB Instance APIs, tiny URLs, OAuth).
    case other

    /// The API's name in the platform's messages (`Rate limit of 10 requests per hour for Table API exceeded`).
    var name: String {
        switch self {
        case .table: "Table API"
        case .importSet: "Import Set API"
        case .aggregate: "Aggregate API"
        case .attachment: "Attachment API"
        case .batch: "Batch API"
        case .other: "REST API"
        }
    }

    /// The API of a request path and the table it names (Table, Import Set and Aggregate APIs).
    static func of(path: String) -> (api: PlatformAPI, table: String?) {
        if TableAPIRequest.hasTablePrefix(path) {
            let parts = path.split(separator: "/", omittingEmptySubsequences: true)
            return (.table, parts.firstIndex(of: "table").flatMap { $0 + 1 < parts.count ? String(parts[$0 + 1]) : nil })
        }
        if let route = ImportSetAPIHandler.route(path) { return (.importSet, route.table) }
        if let table = AggregateAPIHandler.table(in: path) { return (.aggregate, table) }
        if AttachmentAPIHandler.route(path) != nil { return (.attachment, nil) }
        if LocalInstance.isBatchPath(path) { return (.batch, nil) }
        return (.other, nil)
    }
}
