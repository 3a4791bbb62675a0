/// `change`: a change request through the Change Management API, created from a standard change template
/// (`template:`) or a model (`model:`), or taken by its sys_id (`sys_id:`), with `fields`, then moved through
/// `states` in order, each move as the change's model allows it.
struct ChangeStep: Sendable, Hashable {
    /// Which change the step works on.
    enum Target: Sendable, Hashable {
        /// A new standard change from the template of this name or sys_id.
        case template(Template)
        /// A new change of the model of this name (`Normal`) or sys_id.
        case model(Template)
        /// The existing change of this sys_id.
        case sysID(Template)
    }

    var target: Target
    var fields: [NamedTemplate]
    /// The states to move it to, in order: labels in lowercase (`scheduled`) or values (`-2`).
    var states: [String]

    /// The change request states a job file may name, by label.
    static let stateNames = ["new", "assess", "authorize", "scheduled", "implement", "review", "closed", "canceled"]
    /// The same states' values.
    static let stateValues = ["-5", "-4", "-3", "-2", "-1", "0", "3", "4"]

    /// The value of a state a job file names (`scheduled` or `-2`): `-2`.
    static func stateValue(named name: String) -> String {
        stateNames.firstIndex(of: name).map { stateValues[$0] } ?? name
    }
}
