import Foundation
import NowData

/// What expressions can see: `vars`, `env`, `steps` and the names bound by enclosing `foreach` steps; and the job's
/// dates and clock, for `now()`, `today()` and texts read as dates.
struct Scope: Sendable {
    var vars: [String: JSONValue] = [:]
    var env: [String: String] = [:]
    var steps: [String: StepResult] = [:]
    var locals: [String: JSONValue] = [:]
    /// How texts are read as dates (ServiceNow's format and the job's `coder.dates`) and the zone of `today()`.
    var dates = JobDates(CoderSettings(), zoneName: "UTC")
    /// The time `now()` gives.
    var now: @Sendable () -> Date = { Date() }
}

extension Scope {
    /// The results of the steps with these ids that gave one, in their order.
    func results(of ids: [String]) -> [StepResult.Named] {
        ids.compactMap { id in steps[id].map { (id, $0) } }
    }
}
