import Foundation
import NowData

/// The records of a `query` step, read a page at a time as they are asked for, so that a job holds one page
/// whatever the count.
///
/// Keyed paging (the default): each page asks for the records after the last one read in the query's sort, with
/// `sys_id` as the tie-breaker (``PagingKey``: `sys_id>last` sorted `ORDERBYsys_id` for a query sorted by nothing
/// else), so that records inserted or deleted elsewhere while the job runs shift no page: a record that exists
/// throughout is read exactly once. The condition is added to the query's tree and its values go through the
/// checks of a `where:` value; the next page is fetched while the current one is handled. The first page is asked
/// with the count, so that a query whose records fit in it takes one request; the pages after a full one are not
/// (`sysparm_no_count`), which on a large table costs more than the page. A query without a sort first asks for
/// one page as it is, in the instance's own order: when that page holds every record, they are the result, as
/// they were before keyed paging; otherwise the records are read again from the start by key (one page more in
/// all).
///
/// A short page is not the end: on the platform the read ACLs remove records from a page after its limit, so a
/// page can come back short, or empty, in the middle of the records. The page after a short one is asked for
/// with the count (`X-Total-Count`, of the records after the key, before any ACL) and the read ends when that
/// count shows no record past the page; a page the ACLs emptied whole is passed by offset from the same key.
///
/// Offset paging (`paging: offset`, or a sort ``JobExecution/Paging`` cannot page by) follows the instance's
/// `sysparm_offset` links as before, and skips or repeats records when the table changes under it.
///
/// A page the instance cuts off at its transaction quota is fetched again from the same place in pages half as
/// large (each such page counts as a retry on the step's line). Each page's records are written to the step's
/// file (`to:`), when it has one, as they arrive.
final class RecordStream {
    let table: String
    /// The key pages are asked for by; nil: by offset.
    let key: PagingKey?
    /// The most records wanted (`limit`), nil for all.
    let limit: Int?
    /// How many records have been read so far.
    private(set) var read = 0
    /// How many pages have been read so far.
    private(set) var pages = 0
    /// The records a request asks for; halved when a page meets the transaction quota.
    private(set) var pageSize: Int

    /// A page's answer; with the instance's count of the records its request matched when `counted` (nil when
    /// the instance sent none).
    private typealias Answer = (data: Data, counted: Bool, total: Int?)

    private unowned let execution: JobExecution
    private let query: EncodedQuery
    private let readConfiguration: FieldReadConfiguration
    /// The sort fields read only for the key (the job's `fields:` leaves them out): removed from each record.
    private let keyOnlyFields: [String]
    private let label: String
    /// Why the query pages by offset although paging by key was asked for; nil otherwise.
    private let offsetReason: String?
    private var output: FileHandle?
    /// Keyed: the sort values of the last record read.
    private var lastValues: [String]?
    /// Keyed: how many records after ``lastValues`` the next request passes (pages the ACLs emptied).
    private var passed = 0
    /// Keyed: whether the next request asks for the count (the first, or the page before it was short).
    private var counting = false
    /// Keyed: the next page, requested while the one before it is handled.
    private var ahead: Task<Answer, any Error>?
    /// Offset: the paginator following the instance's links.
    private var paginator: Paginator<Data>?
    private var finished = false
    /// Keyed: whether the first page is still to be asked for in the instance's own order (the query had no sort).
    private var probing: Bool

    /// Whether every record was read (or the stream stopped).
    var isFinished: Bool { finished }

    /// A stream of the records of `query` (its sort included) from `table`, paged as `paging` says (nil: by
    /// offset, as the job asked); a keyed stream sorts by its key.
    init(
        execution: JobExecution, table: String, query: EncodedQuery, paging: JobExecution.Paging?, limit: Int?,
        pageSize: Int, readConfiguration: FieldReadConfiguration, label: String, output: FileHandle?
    ) {
        self.execution = execution
        self.table = table
        var query = query
        var readConfiguration = readConfiguration
        var keyOnlyFields: [String] = []
        switch paging {
        case .keyed(let key)?:
            self.key = key
            offsetReason = nil
            probing = query.ordering.isEmpty
            // The first page is asked with the count: a query whose records fit it takes one request.
            counting = true
            query.ordering = key.ordering
            if !readConfiguration.includeFields.isEmpty {
                keyOnlyFields = key.sortFields.filter { !readConfiguration.includeFields.contains($0) }
                readConfiguration.includeFields += keyOnlyFields
            }
        case .offset(let reason)?:
            key = nil
            offsetReason = reason
            probing = false
        case nil:
            key = nil
            offsetReason = nil
            probing = false
        }
        self.query = query
        self.readConfiguration = readConfiguration
        self.keyOnlyFields = keyOnlyFields
        self.limit = limit
        self.pageSize = pageSize
        self.label = label
        self.output = output
    }

    deinit {
        ahead?.cancel()
    }

    /// How the step's line says it paged: `, keyed by sys_id`, `, keyed by number and sys_id`, `, by offset
    /// (order_by caller_id: ...)` when paging by key was asked for and the sort does not allow it, or nothing for
    /// offset paging the job asked for.
    var pagingNote: String {
        if let key { return ", keyed by \(key.description)" }
        return offsetReason.map { ", by offset (\($0))" } ?? ""
    }

    /// The next page's records as the job sees them (dates in the job's format), nil once every record was read.
    func nextPage() async throws(StepFailure) -> [NowRecord]? {
        guard !finished else { return nil }
        let remaining = limit.map { $0 - read } ?? Int.max
        guard remaining > 0 else {
            finish()
            return nil
        }
        let records = try await key != nil ? keyedPage(remaining: remaining) : offsetPage()
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
            let task = request(unsorted, size: size, counted: true, passing: 0)
            do throws(StepFailure) {
                let answer = try await execution.calling { try await task.value }
                let (records, _) = try self.records(of: answer.data)
                // Every record the query matches was in that page: the result, in the instance's order.
                if records.count < size, let total = answer.total, total <= size {
                    finished = true
                    return records
                }
            } catch let failure where failure.cause?.isTransactionCancelled == true {
                // Cut off by the transaction quota: not one page; read by key in smaller pages.
                pageSize = max(1, pageSize / 2)
            }
            // More records than a page: by key from the start, without the count.
            counting = false
        }
        while true {
            let size = min(pageSize, remaining)
            let task: Task<Answer, any Error>
            if let ahead {
                task = ahead
                self.ahead = nil
            } else {
                task = try request(size: size)
            }
            let answer: Answer
            do throws(StepFailure) {
                answer = try await execution.calling { try await task.value }
            } catch let failure where failure.cause?.isTransactionCancelled == true && pageSize > 1 {
                // A page that met the instance's transaction quota: the same records again, in pages half as large.
                pageSize /= 2
                continue
            }
            let (records, last) = try self.records(of: answer.data)
            // Past the page, by the instance's count: whether records remain after the key (nil: not counted; an
            // instance that sends no count leaves a short page the end, as it must).
            let more = answer.counted ? answer.total.map { $0 > passed + size } ?? false : nil
            guard let last else {
                if !records.isEmpty {
                    throw StepFailure(
                        "paging by key: the last record of a page lacks a value of \(key?.description ?? "sys_id") to continue after; "
                            + "give the query paging: offset", fromInstance: true)
                }
                switch more {
                case false?:
                    finished = true
                    return records
                case true?: passed += size  // A page the ACLs emptied whole: the records after it.
                case nil: counting = true  // Not sure it is the end: the same page again, counted.
                }
                continue
            }
            // The same last record again: the instance ignored the key's condition (as it ignores one it cannot
            // apply), and would answer every page alike.
            if last == lastValues {
                throw StepFailure(
                    "paging by key: the instance answered the page after the last record read with that record again, "
                        + "ignoring the condition on \(key?.description ?? "sys_id"); give the query paging: offset",
                    fromInstance: true)
            }
            lastValues = last
            passed = 0
            if more == false {
                finished = true
                return records
            }
            counting = records.count < size
            if remaining - records.count > 0 { ahead = try request(size: min(pageSize, remaining - records.count)) }
            return records
        }
    }

    /// Starts the request of the page after ``lastValues`` (its query narrowed by the key, checked as a `where:`
    /// is), `size` records, passing ``passed`` of them; counted when ``counting``.
    private func request(size: Int) throws(StepFailure) -> Task<Answer, any Error> {
        guard let key, let lastValues else { return request(query, size: size, counted: counting, passing: passed) }
        let narrowed: EncodedQuery
        do throws(QueryBuildError) {
            narrowed = try key.query(query, after: lastValues)
            var labels: [String] = []
            _ = try execution.checked(key.query(EncodedQuery(groups: []), after: lastValues), of: table, translated: &labels)
        } catch {
            throw StepFailure("paging by key: \(error.message); give the query paging: offset")
        }
        return request(narrowed, size: size, counted: counting, passing: passed)
    }

    /// Starts the request of `size` records of `query`, `passing` records in; with the instance's count when
    /// `counted`.
    private func request(_ query: EncodedQuery, size: Int, counted: Bool, passing: Int) -> Task<Answer, any Error> {
        let filter = query.groups.isEmpty && query.ordering.isEmpty ? nil : Filter(query: query.text)
        var configuration = FetchConfiguration(filter: filter, limit: size, readConfiguration: readConfiguration)
        let (service, table) = (execution.service, table)
        if counted {
            return Task {
                let (data, total) = try await service.countedRecords(from: table, configuration: configuration, offset: passing)
                return (data, true, total)
            }
        }
        configuration.skipsCount = true
        return Task { (try await service.records(from: table, configuration: configuration), false, nil) }
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
            return try records(of: fetched).records
        }
    }

    private func makePaginator() -> Paginator<Data> {
        let filter = query.groups.isEmpty && query.ordering.isEmpty ? nil : Filter(query: query.text)
        let configuration = FetchConfiguration(filter: filter, limit: pageSize, readConfiguration: readConfiguration)
        let paginator = execution.service.paginator(from: table, configuration: configuration, offset: read)
        paginator.maxRecords = limit
        return paginator
    }

    /// The records of a page as the job sees them (the fields read only for the key removed, dates in the job's
    /// format), and, keyed, the key's values of the last one (nil for an empty page).
    private func records(of data: Data) throws(StepFailure) -> (records: [NowRecord], last: [String]?) {
        var records: [NowRecord]
        do {
            records = try execution.storedRecords(data)
        } catch let failure as StepFailure {
            throw failure
        } catch {
            throw StepFailure("\(error)", fromInstance: true)
        }
        let last = records.last.flatMap { key?.values(of: $0) }
        if !keyOnlyFields.isEmpty {
            for index in records.indices {
                var fields = records[index].fields
                for name in keyOnlyFields { fields[name] = nil }
                records[index].fields = fields
            }
        }
        return (records.map(execution.dates.incoming), last)
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
