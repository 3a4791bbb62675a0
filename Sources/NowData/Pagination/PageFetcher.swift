import Foundation
import Synchronization

/// The state machine behind a ``Paginator``: which page is current, where the others are (from the `Link`
/// header), the prefetched next page. One operation runs at a time; pages are raw bodies.
actor PageFetcher {
    enum Edge: Sendable { case first, last }
    enum Step: Sendable { case next, previous }

    nonisolated let status: Mutex<PageStatus>
    nonisolated let itemsPerPage: Int
    private let pipeline: RequestPipeline
    private let firstRequest: NowHTTPRequest?
    private var links = LinkHeader("")
    private var prefetch: (request: NowHTTPRequest, task: Task<NowHTTPResponse, any Error>)?
    private var running = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Pages through the list at `path` (nil: a path that could not be made, which the first fetch reports).
    init(pipeline: RequestPipeline, path: String?, configuration: FetchConfiguration?) {
        self.pipeline = pipeline
        let pageSize = max(1, configuration?.limit ?? FetchConfiguration.defaultPageSize)
        itemsPerPage = pageSize
        status = Mutex(PageStatus())
        var items = (configuration?.queryItems ?? []).filter {
            $0.name != "sysparm_limit" && $0.name != "sysparm_offset"
        }
        items += [
            URLQueryItem(name: "sysparm_limit", value: String(pageSize)),
            URLQueryItem(name: "sysparm_offset", value: "0"),
        ]
        if let path {
            firstRequest = NowHTTPRequest(method: "GET", path: path, queryItems: items)
        } else {
            firstRequest = nil
        }
    }

    deinit {
        prefetch?.task.cancel()
    }

    /// Fetches the first or the last page and returns its body.
    func fetch(_ edge: Edge) async throws -> Data {
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

    /// Fetches the next or the previous page and returns its body; nil when there is no such page.
    /// Before the first fetch, the next page is the first.
    func fetch(_ step: Step) async throws -> Data? {
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
        cancelPrefetch()
        links = LinkHeader("")
        status.withLock { status in
            let maxRecords = status.maxRecords
            status = PageStatus()
            status.maxRecords = maxRecords
        }
    }

    private func load(_ request: NowHTTPRequest) async throws -> Data {
        status.withLock { $0.isBusy = true }
        defer { status.withLock { $0.isBusy = false } }
        let response = try await response(for: request)
        apply(response, of: request)
        if let next = nextRequest() { startPrefetch(next) }
        return response.body
    }

    private func response(for request: NowHTTPRequest) async throws -> NowHTTPResponse {
        if let prefetch, prefetch.request == request {
            self.prefetch = nil
            let task = prefetch.task
            return try await withTaskCancellationHandler {
                try await task.value
            } onCancel: {
                task.cancel()
            }
        }
        cancelPrefetch()
        return try await pipeline.send(request, mode: .idempotent)
    }

    private func startPrefetch(_ request: NowHTTPRequest) {
        cancelPrefetch()
        let pipeline = pipeline
        prefetch = (request, Task { try await pipeline.send(request, mode: .idempotent) })
    }

    private func cancelPrefetch() {
        prefetch?.task.cancel()
        prefetch = nil
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
