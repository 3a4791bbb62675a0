/// `query`: records of a table, fetched page by page up to `limit`.
struct QueryStep: Sendable, Hashable {
    var table: Template
    var filter: RecordFilter?
    var fields: [String] = []
    var limit: Int?
    var pageSize: Int?
    var orderBy: Template?
    var orderByDescending: Template?
    var read = ReadSettings()
}
