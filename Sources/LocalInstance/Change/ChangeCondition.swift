/// A condition a change request must meet to take a transition of its ``ChangeModel``, named as the platform's
/// state transition conditions are.
enum ChangeCondition: Sendable, CaseIterable {
    case notOnHold
    case assignmentGroupSet
    case plannedDatesSet
    case noActiveTasks
    case closeCodeSet
    case closeNotesSet

    /// The condition's name, as `nextstates` and the refusal of a move give it.
    var name: String {
        switch self {
        case .notOnHold: "Not On hold"
        case .assignmentGroupSet: "Assignment group is not empty"
        case .plannedDatesSet: "Planned start and end dates are set"
        case .noActiveTasks: "No active Change Tasks"
        case .closeCodeSet: "Close code is not empty"
        case .closeNotesSet: "Close notes are not empty"
        }
    }

    /// Whether the change (its stored values, with the write's applied) meets it; `activeTasks` is the number of
    /// its active change tasks.
    func isMet(by change: StoredRecord, activeTasks: Int) -> Bool {
        func isSet(_ field: String) -> Bool { !(change[field] ?? "").isEmpty }
        return switch self {
        case .notOnHold: change["on_hold"] != "true"
        case .assignmentGroupSet: isSet("assignment_group")
        case .plannedDatesSet: isSet("start_date") && isSet("end_date")
        case .noActiveTasks: activeTasks == 0
        case .closeCodeSet: isSet("close_code")
        case .closeNotesSet: isSet("close_notes")
        }
    }
}
