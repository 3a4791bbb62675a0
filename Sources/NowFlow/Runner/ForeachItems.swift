import NowData

/// The items of a `foreach`, handed out one at a time: a list's, or a streamed query's records as its pages
/// arrive (the first page read by the query, the rest read here when the items before them are taken). Every
/// item a foreach runs, sequential or parallel, comes through ``next()``: the one place to choose which items run.
struct ForeachItems {
    private enum Source {
        case list([JSONValue])
        case stream(OpenStream)
    }

    private var source: Source
    /// The records of the page being handed out (a stream's).
    private var page: ArraySlice<NowRecord> = []
    /// How many items ``next()`` has given.
    private(set) var taken = 0

    /// The items of a list.
    init(_ items: [JSONValue]) {
        source = .list(items)
    }

    /// The records of a query streamed to the foreach.
    init(_ open: OpenStream) {
        source = .stream(open)
        page = open.firstPage[...]
    }

    /// How many items there are, when known before they are all taken (a list's count); nil for a stream.
    var total: Int? {
        if case .list(let items) = source { items.count } else { nil }
    }

    /// The next item, or nil when there is none left.
    mutating func next() async throws(StepFailure) -> JSONValue? {
        switch source {
        case .list(let items):
            guard taken < items.count else { return nil }
            taken += 1
            return items[taken - 1]
        case .stream(let open):
            if page.isEmpty {
                guard let records = try await open.stream.nextPage() else { return nil }
                open.streamed.count = open.stream.read
                page = records[...]
            }
            guard let record = page.popFirst() else { return nil }
            taken += 1
            return record.jsonValue
        }
    }

    /// Stops reading a stream (its file closed): the foreach takes no more items.
    func finish() {
        if case .stream(let open) = source { open.stream.finish() }
    }
}
