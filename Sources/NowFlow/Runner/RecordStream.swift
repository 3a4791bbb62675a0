import Foundation
import NowData

/// The records of a `query` step, read a page at a time as they are asked for, so that a job holds one page
/// whatever the count.
///
/// Keyed paging (the default when the query sorts by nothing but `sys_id`): each page asks for the records after
/// the last sys_id read (`sys_id>last`, sorted `ORDERBYsys_id`), so that records inserted or deleted elsewhere
/// while the job runs shift no page: a record that exists throughout is read exactly once. The condition is added
/// to the query's tree and its value goes through the checks of a `where:` value; the next page is fetched while
/// the current one is handled, and the instance is told not to count the matching records (`sysparm_no_count`),
/// which on a large table costs more than the page. A query without a sort first asks for one page as it is, in the instance's own
/// order: when that page holds every record, they are the result, as they were before keyed paging; otherwise the
/// records are read again from the start by key (one page more in all). Offset paging (`paging: offset`, or a query sorted by another field) follows the
/// instance's `sysparm_offset` links as before, and skips or repeats records when the table changes under it.
///
/// A page the instance cuts off at its transaction quota is fetched again from the same place in pages half as
/// large (each such page counts as a retry on the step's line). Each page's records are written to the step's file (`to:`), when it has one, as they arrive.
final class RecordStream {
    let table: String
    /// Whether pages are asked for by key (`sys_id>last`) rather than by offset.
    let keyed: Bool
    /// The most records wanted (`limit`), nil for all.
    let limit: Int?
    /// How many records have been read so far.
    private(set) var read = 0
    /// How many pages have been read so far.
    private(set) var pages = 0
    /// The records a request asks for; halved when a page meets the transaction quota.
    private(set) var pageSize: Int

    private unowned let execution: JobExecution
    private let query: EncodedQuery
    private let readConfiguration: FieldReadConfiguration
    private let label: String
    private var output: FileHandle?
    /// Keyed: the sys_id of the last record read.
    private var lastSysID: String?
    /// Keyed: the next page, requested while the one before it is handled.
    private var ahead: Task<Data, any Error>?
    /// Offset: the paginator following the instance's links.
    private var paginator: Paginator<Data>?
    private var finished = false
    /// Keyed: whether the first page is still to be asked for in the instance's own order (the query had no sort).
    private var probing: Bool

    /// Whether every record was read (or the stream stopped).
    var isFinished: Bool { finished }

    /// A stream of the records of `query` (its sort included) from `table`; keyed when `keyed` and the query sorts
    /// by nothing but `sys_id` ascending (then `ORDERBYsys_id` is added when absent).
    init(
        execution: JobExecution, table: String, query: EncodedQuery, keyed: Bool, limit: Int?, pageSize: Int,
        readConfiguration: FieldReadConfiguration, label: String, output: FileHandle?
    ) {
        self.execution = execution
        self.table = table
        let sortsBySysID = query.ordering.allSatisfy { $0.field == "sys_id" && !$0.descending }
        self.keyed = keyed && sortsBySysID
        probing = self.keyed && query.ordering.isEmpty
        var query = query
        if self.keyed { query.ordering = [EncodedQuery.Ordering(field: "sys_id", descending: false)] }
        self.query = query
        self.limit = limit
        self.pageSize = pageSize
        self.readConfiguration = readConfiguration
        self.label = label
        self.output = output
    }

    deinit {
        ahead?.cancel()
    }

    /// How the step's line says it paged: `, keyed by sys_id`, or nothing for offset paging.
    var pagingNote: String { keyed ? ", keyed by sys_id" : "" }

    /// The next page's records as the job sees them (dates in the job's format), nil once every record was read.
    func nextPage() async throws(StepFailure) -> [NowRecord]? {
        guard !finished else { return nil }
        let remaining = limit.map { $0 - read } ?? Int.max
        guard remaining > 0 else {
            finish()
            return nil
        }
        let records = try await keyed ? keyedPage(remaining: remaining) : offsetPage()
        guard let records, !records.isEmpty else {
            finish()
            return nil
        }
        let kept = records.count > remaining ? Array(records.prefix(remaining)) : records
        read += kept.count
        pages += 1
        try write(kept)
        execution.options.onEvent(.paging(label: label, fetched: read, expected: limit ?? announced))
        return kept
    }

    /// Stops reading: the page fetched ahead is dropped, the file closed.
    func finish() {
        finished = true
        ahead?.cancel()
        ahead = nil
        try? output?.close()
        output = nil
    }

    /// How many records the instance's count (`X-Total-Count`) announces, as the offset paginator read it; nil
    /// when paging by key or not told.
    private var announced: Int? {
        guard let pages = paginator?.numberOfPages, pages != Int.max else { return nil }
        return max(read, min(pages * pageSize, Int.max / 2))
    }

    // MARK: - Keyed

    private func keyedPage(remaining: Int) async throws(StepFailure) -> [NowRecord]? {
        if probing {
            probing = false
            var unsorted = query
            unsorted.ordering = []
            let size = min(pageSize, remaining)
            let task = request(unsorted, size: size)
            do throws(StepFailure) {
                let records = try self.records(of: try await execution.calling { try await task.value })
                if records.count < size {
                    finished = true
                    return records
                }
            } catch let failure where failure.cause?.isTransactionCancelled == true {
                // Cut off by the transaction quota: not one page; read by key in smaller pages.
                pageSize = max(1, pageSize / 2)
            }
        }
        while true {
            let size = min(pageSize, remaining)
            let task: Task<Data, any Error>
            if let ahead {
                task = ahead
                self.ahead = nil
            } else {
                task = try request(size: size)
            }
            let data: Data
            do throws(StepFailure) {
                data = try await execution.calling { try await task.value }
            } catch let failure where failure.cause?.isTransactionCancelled == true && pageSize > 1 {
                // A page that met the instance's transaction quota: the same records again, in pages half as large.
                pageSize /= 2
                continue
            }
            let records = try self.records(of: data)
            guard records.count >= size, let last = records.last?.sysId, !last.isEmpty else {
                finished = true
                return records
            }
            lastSysID = last
            if remaining - records.count > 0 { ahead = try request(size: min(pageSize, remaining - records.count)) }
            return records
        }
    }

    /// Starts the request of the page after ``lastSysID``: the query with `sys_id>last` added to each of its
    /// groups, `size` records.
    private func request(size: Int) throws(StepFailure) -> Task<Data, any Error> {
        var query = query
        if let lastSysID {
            let value: String
            do throws(QueryBuildError) {
                value = try EncodedQueryBuilder.checkedText(.string(lastSysID), describedAs: "the last sys_id read")
            } catch {
                throw StepFailure("paging by key: \(error.message)")
            }
            let after = EncodedQuery.Clause(
                terms: [.condition(EncodedQuery.Condition(field: "sys_id", op: .greaterThan, value: value))])
            if query.groups.isEmpty {
                query.groups = [EncodedQuery.Group(clauses: [after])]
            } else {
                for index in query.groups.indices { query.groups[index].clauses.append(after) }
            }
        }
        return request(query, size: size)
    }

    /// Starts the request of `size` records of `query`.
    private func request(_ query: EncodedQuery, size: Int) -> Task<Data, any Error> {
        let filter = query.groups.isEmpty && query.ordering.isEmpty ? nil : Filter(query: query.text)
        var configuration = FetchConfiguration(filter: filter, limit: size, readConfiguration: readConfiguration)
        configuration.skipsCount = true
        let (service, table) = (execution.service, table)
        return Task { try await service.records(from: table, configuration: configuration) }
    }

    // MARK: - Offset

    private func offsetPage() async throws(StepFailure) -> [NowRecord]? {
        while true {
            let paginator = paginator ?? makePaginator()
            self.paginator = paginator
            let fetched: Data?
            do throws(StepFailure) {
                fetched = try await execution.calling { try await paginator.next() }
            } catch let failure where failure.cause?.isTransactionCancelled == true && pageSize > 1 {
                pageSize /= 2
                self.paginator = nil
                continue
            }
            guard let fetched else { return nil }
            return try records(of: fetched)
        }
    }

    private func makePaginator() -> Paginator<Data> {
        let filter = query.groups.isEmpty && query.ordering.isEmpty ? nil : Filter(query: query.text)
        let configuration = FetchConfiguration(filter: filter, limit: pageSize, readConfiguration: readConfiguration)
        let paginator = execution.service.paginator(from: table, configuration: configuration, offset: read)
        paginator.maxRecords = limit
        return paginator
    }

    /// The records of a page, as the job sees them.
    private func records(of data: Data) throws(StepFailure) -> [NowRecord] {
        do {
            return try execution.incomingRecords(data)
        } catch let failure as StepFailure {
            throw failure
        } catch {
            throw StepFailure("\(error)", fromInstance: true)
        }
    }

    // MARK: - Output

    /// Writes `records` to the step's file, one JSON object a line.
    private func write(_ records: [NowRecord]) throws(StepFailure) {
        guard let output else { return }
        var text = ""
        for record in records {
            text += record.jsonValue.jsonText()
            text += "\n"
        }
        do {
            try output.write(contentsOf: Data(text.utf8))
        } catch {
            throw StepFailure("to: cannot write: \((error as NSError).fileProblem)")
        }
    }
}
