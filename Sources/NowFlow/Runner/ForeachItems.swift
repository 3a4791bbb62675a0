import NowData

/// The items of a `foreach`, handed out one at a time: a list's, or a streamed query's records as its pages
/// arrive (the first page read by the query, the rest read here when the items before them are taken). Every
/// item a foreach runs, sequential or parallel, comes through ``next()``: the one place to choose which items run
/// (under `--shard`, the shard's records and every item that is not a record; ``Shard/owns(item:)``).
struct ForeachItems {
    private enum Source {
        case list([ExpressionValue])
        case stream(OpenStream)
    }

    private var source: Source
    /// The records of the page being handed out (a stream's).
    private var page: ArraySlice<NowRecord> = []
    /// The shard whose items a stream hands out (a list's are chosen when it is made).
    private let shard: Shard?
    /// How many items ``next()`` has given.
    private(set) var taken = 0
    /// How many items there are before a shard chooses its own: all of a list's; those of a stream read so far.
    private(set) var offered = 0

    /// The items of a list; under `shard`, the shard's.
    init(_ items: [ExpressionValue], shard: Shard?) {
        source = .list(shard.map { shard in items.filter { shard.owns(item: $0) } } ?? items)
        offered = items.count
        self.shard = shard
    }

    /// The records of a query streamed to the foreach; under `shard`, the shard's.
    init(_ open: OpenStream, shard: Shard?) {
        source = .stream(open)
        page = open.firstPage[...]
        self.shard = shard
    }

    /// How many items there are to take, when known before they are all taken (a list's count); nil for a stream.
    var total: Int? {
        if case .list(let items) = source { items.count } else { nil }
    }

    /// The next item, or nil when there is none left.
    mutating func next() async throws(StepFailure) -> ExpressionValue? {
        switch source {
        case .list(let items):
            guard taken < items.count else { return nil }
            taken += 1
            return items[taken - 1]
        case .stream(let open):
            while true {
                if page.isEmpty {
                    guard let records = try await open.stream.nextPage() else { return nil }
                    open.streamed.count = open.stream.read
                    page = records[...]
                }
                guard let record = page.popFirst() else { return nil }
                offered += 1
                if let shard, !shard.owns(item: .record(record)) { continue }
                taken += 1
                return .record(record)
            }
        }
    }

    /// Stops reading a stream (its file closed): the foreach takes no more items.
    func finish() {
        if case .stream(let open) = source { open.stream.finish() }
    }
}
