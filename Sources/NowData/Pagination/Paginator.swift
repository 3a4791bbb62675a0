import Foundation

/// Pages through the records a table service selects, following the Table API's `Link` header.
///
/// ```swift
/// let paginator: Paginator<[User]> = service.paginator(from: "sys_user")
/// for try await users in paginator {
///     print(users.map(\.name))
/// }
/// ```
///
/// A page holds ``itemsPerPage`` records (20 unless the configuration's `limit` says otherwise; access rules
/// may make a page shorter). While you work on a page, the next one is already being fetched and decoded, and the
/// one after it transferred; a page is always decoded while the next one is transferred, even when you ask for
/// each page as soon as you have the one before. No more than these two pages are held, so memory stays bounded by
/// the page size whatever the table's size. A failure of a page fetched ahead is thrown when you ask for that page. Set
/// ``maxRecords`` to stop after a number of records.
///
/// Operations run one at a time, in the order they are called. Errors are ``NowDataError``.
public final class Paginator<Model>: Sendable {
    private let fetcher: PageFetcher<DecodedPage<Model>>

    init(
        pipeline: RequestPipeline, tableName: String, configuration: FetchConfiguration?, offset: Int = 0,
        decodePage: @escaping @Sendable (Data) throws -> Model
    ) {
        fetcher = PageFetcher(
            pipeline: pipeline, path: try? TableRequest.tablePath(tableName), configuration: configuration,
            offset: offset
        ) { DecodedPage(try decodePage($0)) }
    }

    /// A paginator over the list another API answers at `path`, such as `/api/now/attachment`.
    init(
        pipeline: RequestPipeline, path: String, configuration: FetchConfiguration?,
        decodePage: @escaping @Sendable (Data) throws -> Model
    ) {
        fetcher = PageFetcher(pipeline: pipeline, path: path, configuration: configuration) {
            DecodedPage(try decodePage($0))
        }
    }

    /// The number of records a page holds.
    public var itemsPerPage: Int { fetcher.itemsPerPage }
    /// The zero-based index of the current page (0 before the first fetch).
    public var page: Int { fetcher.status.withLock { $0.page } }
    /// The number of pages, from `X-Total-Count` and ``maxRecords``; `Int.max` before the first fetch.
    public var numberOfPages: Int { fetcher.status.withLock { $0.numberOfPages } }
    /// Whether a page follows the current one (true before the first fetch).
    public var hasNext: Bool { fetcher.status.withLock { $0.hasNext } }
    /// Whether a page precedes the current one.
    public var hasPrevious: Bool { fetcher.status.withLock { $0.hasPrevious } }
    /// Whether a page you asked for is being fetched.
    public var isBusy: Bool { fetcher.status.withLock { $0.isBusy } }
    /// Whether the last page has been fetched.
    public var isFinished: Bool { fetcher.status.withLock { $0.isFinished } }

    /// The most records to page through in all; nil pages through every record. The page that reaches
    /// the limit is fetched short.
    public var maxRecords: Int? {
        get { fetcher.status.withLock { $0.maxRecords } }
        set { fetcher.status.withLock { $0.maxRecords = newValue.map { Swift.max(0, $0) } } }
    }

    /// Fetches the first page.
    public func first() async throws -> Model {
        try await NowTableService.mappingErrors { try await fetcher.fetch(.first).model }
    }

    /// Fetches the page after the current one (the first page before any fetch); nil after the last page.
    public func next() async throws -> Model? {
        try await page(.next)
    }

    /// Fetches the page before the current one; nil on the first page.
    public func previous() async throws -> Model? {
        try await page(.previous)
    }

    /// Fetches the last page.
    public func last() async throws -> Model {
        try await NowTableService.mappingErrors { try await fetcher.fetch(.last).model }
    }

    /// Starts again: forgets every page and fetches the first.
    public func reset() async throws -> Model {
        await fetcher.reset()
        return try await first()
    }

    private func page(_ step: PageFetcher<DecodedPage<Model>>.Step) async throws -> Model? {
        try await NowTableService.mappingErrors { try await fetcher.fetch(step)?.model }
    }
}
