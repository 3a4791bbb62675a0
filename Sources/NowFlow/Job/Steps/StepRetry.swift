/// A step's `retry`: run it again, up to `attempts` times in all, `delay` apart, until it succeeds and `until`
/// holds (for polling).
struct StepRetry: Sendable, Hashable {
    var attempts: Int
    var delay: Duration
    /// May use the step's own result as `steps.<id>`.
    var until: Expression?
}
