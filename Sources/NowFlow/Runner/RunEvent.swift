/// What a running job reports as it goes (already masked: no secret appears in an event).
public enum RunEvent: Sendable {
    /// A step starts: its label, such as `step 2 'incident' (create)`.
    case stepStarted(String)
    /// A step has finished, passed, failed or been skipped.
    case stepFinished(StepOutcome)
    /// A query has fetched `fetched` records of about `expected`: its limit, or what the instance's count of
    /// pages announces (nil when unknown).
    case paging(label: String, fetched: Int, expected: Int?)
    /// A `foreach` has run `done` of its `total` items (in any order, with `parallel:`); nil when the total is not
    /// known (the records of a query streamed to it).
    case iterating(label: String, done: Int, total: Int?)
    /// A request was sent and answered (or failed): each attempt, for `--verbose`.
    case request(SentRequest)
}
