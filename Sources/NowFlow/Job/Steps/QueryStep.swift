/// `query`: records of a table, fetched page by page up to `limit`.
struct QueryStep: Sendable, Hashable {
    var table: Template
    var filter: RecordFilter?
    var fields: [String] = []
    var limit: CountSetting?
    var pageSize: CountSetting?
    var orderBy: Template?
    var orderByDescending: Template?
    var read = ReadSettings()
}
