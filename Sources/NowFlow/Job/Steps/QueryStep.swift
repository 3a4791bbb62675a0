/// `query`: records of a table, fetched page by page up to `limit`.
struct QueryStep: Sendable, Hashable {
    /// The most records one page of a query asks for when the step gives no `page_size` (and the page size of an
    /// attachments step's list).
    static let defaultPageSize = 100

    var table: Template
    var filter: RecordFilter?
    var fields: [String] = []
    var limit: CountSetting?
    var pageSize: CountSetting?
    var orderBy: Template?
    var orderByDescending: Template?
    var read = ReadSettings()
}
