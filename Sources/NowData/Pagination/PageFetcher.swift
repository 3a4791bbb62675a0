import Foundation
import Synchronization

/// The state machine behind a ``Paginator``: which page is current, where the others are (from the `Link`
/// header), and the pages fetched ahead. One operation runs at a time.
///
/// Paging forward is a pipeline two pages deep: every page is fetched the same way, and as soon as its body has
/// arrived the transfer of the one after it starts and the page is decoded beside that transfer (off the actor),
/// whether the caller is still busy with the page before or already waiting for this one. When a page is handed
/// out, the next one is fetched ahead. So at most two pages are held besides the caller's (one decoding or decoded,
/// one transferring), and the pipeline goes no further until the caller asks for the next page. A page fetched
/// ahead that fails (its transfer or its decoding) throws when the caller asks for that page, not before.
actor PageFetcher<Page: Sendable> {
    enum Edge: Sendable { case first, last }
    enum Step: Sendable { case next, previous }

    /// A page's response and what decoding its body gave.
    private struct Fetched: Sendable {
        let response: NowHTTPResponse
        let page: Result<Page, any Error>
    }

    nonisolated let status: Mutex<PageStatus>
    nonisolated let itemsPerPage: Int
    private let pipeline: RequestPipeline
    private let decode: @Sendable (Data) throws -> Page
    private let firstRequest: NowHTTPRequest?
    private var links = LinkHeader("")
    /// The page after the current one: transferred, then decoded.
    private var ahead: (request: NowHTTPRequest, task: Task<Fetched, any Error>)?
    /// The transfer of the page after ``ahead``, started once ``ahead``'s body arrived.
    private var transfer: (request: NowHTTPRequest, task: Task<NowHTTPResponse, any Error>)?
    private var running = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Pages through the list at `path` (nil: a path that could not be made, which the first fetch reports).
    init(
        pipeline: RequestPipeline, path: String?, configuration: FetchConfiguration?, offset: Int = 0,
        decode: @escaping @Sendable (Data) throws -> Page
    ) {
        self.pipeline = pipeline
        self.decode = decode
        let pageSize = max(1, configuration?.limit ?? FetchConfiguration.defaultPageSize)
        itemsPerPage = pageSize
        status = Mutex(PageStatus())
        var items = (configuration?.queryItems ?? []).filter {
            $0.name != "sysparm_limit" && $0.name != "sysparm_offset"
        }
        items += [
            URLQueryItem(name: "sysparm_limit", value: String(pageSize)),
            URLQueryItem(name: "sysparm_offset", value: String(max(0, offset))),
        ]
        if let path {
            firstRequest = NowHTTPRequest(method: "GET", path: path, queryItems: items)
        } else {
            firstRequest = nil
        }
    }

    deinit {
        ahead?.task.cancel()
        transfer?.task.cancel()
    }

    /// Fetches the first or the last page and returns it decoded.
    func fetch(_ edge: Edge) async throws -> Page {
        await acquire()
        defer { release() }
        let firstRequest = try startingRequest()
        switch edge {
        case .first:
            return try await load(firstRequest)
        case .last:
            if !status.withLock({ $0.started }) { _ = try await load(firstRequest) }
            return try await load(lastRequest() ?? firstRequest)
        }
    }

    /// Fetches the next or the previous page and returns it decoded; nil when there is no such page.
    /// Before the first fetch, the next page is the first.
    func fetch(_ step: Step) async throws -> Page? {
        await acquire()
        defer { release() }
        let firstRequest = try startingRequest()
        let started = status.withLock { $0.started }
        switch step {
        case .next:
            guard started else { return try await load(firstRequest) }
            guard let next = nextRequest() else { return nil }
            return try await load(next)
        case .previous:
            guard started, let previous = links["prev"].flatMap(request(for:)) else { return nil }
            return try await load(previous)
        }
    }

    /// The first page's request, trimmed to the caller's total limit.
    private func startingRequest() throws -> NowHTTPRequest {
        guard var request = firstRequest else { throw NowDataError.invalidURL }
        guard !Task.isCancelled else { throw NowDataError.network(.operationCancelled) }
        if let maxRecords = status.withLock({ $0.maxRecords }), maxRecords < itemsPerPage {
            Self.set("sysparm_limit", to: max(1, maxRecords), in: &request)
        }
        return request
    }

    /// Forgets every page: the next fetch starts again from the first.
    func reset() async {
        await acquire()
        defer { release() }
        cancelAhead()
        links = LinkHeader("")
        status.withLock { status in
            let maxRecords = status.maxRecords
            status = PageStatus()
            status.maxRecords = maxRecords
        }
    }

    /// The page of `request`: the one fetched ahead when it is that page, else fetched now the same way. Either way
    /// the page after it is then fetched ahead.
    private func load(_ request: NowHTTPRequest) async throws -> Page {
        status.withLock { $0.isBusy = true }
        defer { status.withLock { $0.isBusy = false } }
        let task: Task<Fetched, any Error>
        if let ahead, ahead.request == request {
            task = ahead.task
        } else {
            cancelAhead()
            task = fetchAhead(request)
        }
        let fetched: Fetched
        do {
            fetched = try await withTaskCancellationHandler {
                try await task.value
            } onCancel: {
                task.cancel()
            }
        } catch {
            cancelAhead()
            throw error
        }
        guard !Task.isCancelled else {
            cancelAhead()
            throw NowDataError.network(.operationCancelled)
        }
        // The page stays `ahead` while the caller waits for it, so that its arrival starts the next page's transfer
        // (`transferAfter`) even when the caller asked for it first.
        ahead = nil
        apply(fetched.response, of: request)
        if let next = nextRequest() { fetchAhead(next) }
        return try fetched.page.get()
    }

    /// Fetches the page of `request` ahead (its transfer already under way when it is ``transfer``'s): once its
    /// body has arrived, the transfer of the page after it starts, then the page is decoded, off the actor.
    @discardableResult
    private func fetchAhead(_ request: NowHTTPRequest) -> Task<Fetched, any Error> {
        let transferTask: Task<NowHTTPResponse, any Error>
        if let transfer, transfer.request == request {
            transferTask = transfer.task
        } else {
            transfer?.task.cancel()
            transferTask = send(request)
        }
        transfer = nil
        let decode = decode
        let task = Task { [weak self] in
            let response = try await withTaskCancellationHandler {
                try await transferTask.value
            } onCancel: {
                transferTask.cancel()
            }
            try Task.checkCancellation()
            await self?.transferAfter(response, of: request)
            return await Self.decoded(response, with: decode)
        }
        ahead = (request, task)
        return task
    }

    /// A page's response with its body decoded, on the global executor: decoding never holds the actor.
    private static func decoded(_ response: NowHTTPResponse, with decode: @Sendable (Data) throws -> Page) async
        -> Fetched
    {
        Fetched(response: response, page: Result { try decode(response.body) })
    }

    /// Starts the transfer of the page after the one of `request`, whose response has arrived, unless that page is
    /// no longer the one fetched ahead.
    private func transferAfter(_ response: NowHTTPResponse, of request: NowHTTPRequest) {
        guard ahead?.request == request, transfer == nil,
            let next = nextRequest(after: LinkHeader(response.headers["Link"] ?? ""))
        else { return }
        transfer = (next, send(next))
    }

    private func send(_ request: NowHTTPRequest) -> Task<NowHTTPResponse, any Error> {
        let pipeline = pipeline
        return Task { try await pipeline.send(request, mode: .idempotent) }
    }

    /// Stops and forgets the pages fetched ahead.
    private func cancelAhead() {
        ahead?.task.cancel()
        ahead = nil
        transfer?.task.cancel()
        transfer = nil
    }

    /// Records what a page response says: its index, the links, the total.
    private func apply(_ response: NowHTTPResponse, of request: NowHTTPRequest) {
        links = LinkHeader(response.headers["Link"] ?? "")
        let offset = Self.offset(of: request)
        let total = response.headers["X-Total-Count"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        let pageSize = itemsPerPage
        let hasPrevious = links["prev"] != nil
        status.withLock { status in
            status.started = true
            status.page = offset / pageSize
            status.hasPrevious = hasPrevious
            if let total {
                let limited = min(total, status.maxRecords ?? Int.max)
                status.numberOfPages = (limited + pageSize - 1) / pageSize
            }
        }
        let hasNext = nextRequest() != nil
        status.withLock { status in
            status.hasNext = hasNext
            if !hasNext { status.numberOfPages = status.page + 1 }
        }
    }

    /// The next page's request, from the `Link` header, trimmed to the caller's total limit.
    private func nextRequest() -> NowHTTPRequest? {
        nextRequest(after: links)
    }

    /// The request of the page after the one whose `Link` header is `links`, trimmed to the caller's total limit.
    private func nextRequest(after links: LinkHeader) -> NowHTTPRequest? {
        guard let url = links["next"], var request = request(for: url) else { return nil }
        guard let maxRecords = status.withLock({ $0.maxRecords }) else { return request }
        let offset = Self.offset(of: request)
        guard offset < maxRecords else { return nil }
        Self.set("sysparm_limit", to: min(itemsPerPage, maxRecords - offset), in: &request)
        return request
    }

    /// The last page's request: the `Link` header's, or the one the caller's total limit ends on.
    private func lastRequest() -> NowHTTPRequest? {
        guard let url = links["last"], var request = request(for: url) else { return nil }
        guard let maxRecords = status.withLock({ $0.maxRecords }), maxRecords > 0 else { return request }
        let lastOffset = ((maxRecords - 1) / itemsPerPage) * itemsPerPage
        guard Self.offset(of: request) > lastOffset else { return request }
        Self.set("sysparm_offset", to: lastOffset, in: &request)
        Self.set("sysparm_limit", to: min(itemsPerPage, maxRecords - lastOffset), in: &request)
        return request
    }

    /// A GET of a link's path and query on the configured instance (never another host).
    private func request(for url: URL) -> NowHTTPRequest? {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return nil }
        var path = components.percentEncodedPath
        let prefix =
            URLComponents(url: pipeline.configuration.instanceURL, resolvingAgainstBaseURL: false)?.percentEncodedPath
            ?? ""
        if !prefix.isEmpty, prefix != "/", path.hasPrefix(prefix) {
            path = String(path.dropFirst(prefix.count))
        }
        guard path.hasPrefix("/") else { return nil }
        return NowHTTPRequest(method: "GET", path: path, queryItems: components.queryItems ?? [])
    }

    /// Sets the value of every query item named `name` (a link's items keep their order).
    private static func set(_ name: String, to value: Int, in request: inout NowHTTPRequest) {
        request.queryItems = request.queryItems.map {
            $0.name == name ? URLQueryItem(name: name, value: String(value)) : $0
        }
    }

    private static func offset(of request: NowHTTPRequest) -> Int {
        request.queryValue("sysparm_offset").flatMap(Int.init) ?? 0
    }

    private func acquire() async {
        if running {
            await withCheckedContinuation { waiting.append($0) }
        } else {
            running = true
        }
    }

    private func release() {
        if waiting.isEmpty {
            running = false
        } else {
            waiting.removeFirst().resume()
        }
    }
}
