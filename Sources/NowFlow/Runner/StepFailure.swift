import NowData

/// Why a step failed: the message (without the step's label), whether an assertion failed, and whether the
/// instance said so (a request that failed, or more records than `max` match) rather than the job's values.
struct StepFailure: Error, Sendable, CustomStringConvertible {
    var message: String
    var isAssertion = false
    var fromInstance = false
    /// The SDK's error behind a failed request, when there was one.
    var cause: NowDataError?
    /// Where the failed step is written in the job file, once known.
    var location: (line: Int, column: Int)?

    init(_ message: String, isAssertion: Bool = false, fromInstance: Bool = false) {
        self.message = message
        self.isAssertion = isAssertion
        self.fromInstance = fromInstance
    }

    /// The failure of a foreach whose item `index` failed with `failure`.
    init(item index: Int, failed failure: StepFailure) {
        self.init(
            "item \(index) failed: \(failure.message)", isAssertion: failure.isAssertion,
            fromInstance: failure.fromInstance)
    }

    var description: String { message }
}
