import Foundation
import NowData

/// What expressions can see: `vars`, `env`, `steps` and the names bound by enclosing `foreach` steps; and the job's
/// dates and clock, for `now()`, `today()` and texts read as dates.
struct Scope: Sendable {
    /// The job's variables, as they were kept (``ExpressionValue/kept``): a record or records keep their type.
    var variables: [String: ExpressionValue] = [:]
    var env: [String: String] = [:]
    var steps: [String: StepResult] = [:]
    /// The names enclosing foreach steps bound to their items (a record for an item of records).
    var locals: [String: ExpressionValue] = [:]
    /// How texts are read as dates (ServiceNow's format and the job's `coder.dates`) and the zone of `today()`.
    var dates = JobDates(CoderSettings(), zoneName: "UTC")
    /// The time `now()` gives.
    var now: @Sendable () -> Date = { Date() }

    /// A scope of JSON variables and foreach names.
    init(
        vars: [String: JSONValue] = [:], env: [String: String] = [:], steps: [String: StepResult] = [:],
        locals: [String: JSONValue] = [:]
    ) {
        variables = vars.mapValues(ExpressionValue.json)
        self.env = env
        self.steps = steps
        self.locals = locals.mapValues(ExpressionValue.json)
    }
}

extension Scope {
    /// The variables as JSON: what the report, `:vars` and completion show.
    var vars: [String: JSONValue] { variables.mapValues(\.json) }

    /// The results of the steps with these ids that gave one, in their order.
    func results(of ids: [String]) -> [StepResult.Named] {
        ids.compactMap { id in steps[id].map { (id, $0) } }
    }
}
