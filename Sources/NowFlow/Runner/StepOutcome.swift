/// The report of one step: its place, status, duration and what it touched or why it failed.
public struct StepOutcome: Sendable, Hashable {
    /// `1`, `3[0].2` (step 2 of the body of step 3, first item), `finally 1`.
    public var number: String
    /// The step's `id`, if it has one.
    public var id: String?
    /// The step's kind: `query`, `create`, ...
    public var kind: String
    /// How the step ended.
    public var status: StepStatus
    /// Whether the step failed under `continue_on_error` (the job went on).
    public var continued: Bool
    /// How long the step took, retries included.
    public var milliseconds: Int
    /// What the step did (`1 record from sys_user`) or, when it failed, why.
    public var message: String
    /// The step's result as `nowflow run` shows it under the step's line (see ``ResultDisplay``): the lines of a
    /// table of records, or of values; empty when nothing is shown.
    public var shown: [String] = []
    /// The job file the step is written in (an included job's for its steps).
    public var file = ""
    /// The line the step starts on in ``file``.
    public var line = 0

    /// `step 2 'incident' (create)`.
    public var label: String {
        let place = number.hasPrefix("finally") ? number : "step \(number)"
        return id.map { "\(place) '\($0)' (\(kind))" } ?? "\(place) (\(kind))"
    }

    /// The step's name in the reports, which stays when steps are inserted before it: its `id`, else its kind and
    /// line (`create at line 12`), then the foreach item it ran for (`close [2]`).
    public var reportName: String {
        let name = id ?? "\(kind) at line \(line)"
        let items = number.split(separator: ".").compactMap { part in
            part.firstIndex(of: "[").map { String(part[$0...]) }
        }
        return items.isEmpty ? name : name + " " + items.joined()
    }
}
