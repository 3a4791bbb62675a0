import Testing

/// Polls `condition` until it holds, however long the machine takes, up to `limit` (a guard against a hang, not
/// a measure of speed); records an issue naming `what` when it never held. Returns whether it held.
@discardableResult
func eventually(
    _ what: String, within limit: Duration = .seconds(60), sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: () async throws -> Bool
) async throws -> Bool {
    let deadline = ContinuousClock.now + limit
    while true {
        if try await condition() { return true }
        guard ContinuousClock.now < deadline else {
            Issue.record("\(what): still not so after \(limit)", sourceLocation: sourceLocation)
            return false
        }
        try await Task.sleep(for: .milliseconds(10))
    }
}
