/// What a paginator knows about its pages, readable at any time.
struct PageStatus: Sendable {
    var started = false
    var page = 0
    var numberOfPages = Int.max
    var hasNext = true
    var hasPrevious = false
    var isBusy = false
    var maxRecords: Int?

    var isFinished: Bool { started && !hasNext }
}
