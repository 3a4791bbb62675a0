/// `query`: records of a table, fetched page by page up to `limit`.
struct QueryStep: Sendable, Hashable {
    /// The most records one page of a query asks for when the step gives no `page_size` (and the page size of an
    /// attachments step's list).
    static let defaultPageSize = 100

    /// What the step does with the records it reads.
    enum Delivery: Sendable, Hashable {
        /// Keeps every record as `steps.<id>.records` (`collect: true`, a job that uses the records as a whole,
        /// or a step typed in the REPL).
        case collect
        /// Counts the records (and writes them to `to:`) as pages arrive, keeping none.
        case stream
        /// Reads the first page; the one `foreach` over `steps.<id>.records` reads the rest as it goes.
        case foreach
    }

    /// How pages are asked for.
    enum Paging: String, Sendable, Hashable {
        /// `sys_id>last`, sorted by sys_id: records inserted or deleted meanwhile shift nothing.
        case keyed
        /// `sysparm_offset`: as the instance's links say.
        case offset
    }

    var table: Template
    var filter: RecordFilter?
    var fields: [String] = []
    var limit: CountSetting?
    var pageSize: CountSetting?
    var orderBy: Template?
    var orderByDescending: Template?
    var read = ReadSettings()
    /// `collect: true`: keep every record whatever the job's use of them.
    var collect = false
    /// `paging:`.
    var paging = Paging.keyed
    /// `to:`: a file the records are written to, one JSON object a line, as pages arrive.
    var to: Template?
    /// `overwrite: true` replaces the file of `to:` when it exists; otherwise the step refuses to.
    var overwrite = false
    /// Set once the whole job file is read, from `collect` and the job's uses of `steps.<id>`.
    var delivery = Delivery.collect
}
