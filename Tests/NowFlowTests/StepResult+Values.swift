import NowData

@testable import NowFlow

extension StepResult {
    /// Step results that are plain values, for scopes written out by hand.
    static func values(_ results: [String: JSONValue]) -> [String: StepResult] {
        results.mapValues(StepResult.value)
    }
}
