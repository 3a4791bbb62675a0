/// A change model (`chg_model`): the states a change request of its type goes through and the transitions between
/// them, each with the conditions the change must meet to take it. Declared beside the change tables; the Table
/// API refuses a move no transition allows (``TableDictionary/changeStateModels``), and the Change Management API
/// also checks the conditions and lists them (`/change/{sys_id}/nextstates`).
///
/// The three models of a PDI: **Normal** (New, Assess, Authorize, Scheduled, Implement, Review, Closed), **Emergency**
/// (without Assess) and **Standard** (New, Scheduled, Implement, Review, Closed); every open state can be
/// canceled, and Closed and Canceled are final. A normal change entering Assess asks its assignment group's manager
/// for approval and entering Authorize the change advisory board; an emergency change entering Authorize the board.
struct ChangeModel: Sendable {
    /// The model's name (`Normal`), its record's `name` and the key of its sys_id in the demo data.
    let name: String
    /// The `change_request.type` a change of this model has (`normal`).
    let type: String
    let description: String
    /// Whether a change created without a model or type gets this one.
    let isDefault: Bool
    /// The states in the order a change goes through them (values of `change_request.state`).
    let states: [String]
    let transitions: [Transition]
    /// Who is asked to approve a change entering a state (by the state's value), as the model's approval flow
    /// does: a `sysapproval_approver` record, requested, for each.
    let approvals: [String: Approvers]

    /// The sys_id of the model's `chg_model` record.
    var sysID: String { DemoData.sysID("chg_model", name) }

    /// One move between two states and what it asks of the change.
    struct Transition: Sendable {
        let from: String
        let to: String
        let conditions: [ChangeCondition]

        init(_ from: String, _ to: String, _ conditions: [ChangeCondition] = []) {
            self.from = from
            self.to = to
            self.conditions = conditions
        }
    }

    /// The approvers of a state.
    enum Approvers: Sendable, Equatable {
        /// The manager of the change's assignment group (the technical approval of Assess).
        case assignmentGroupManager
        /// Every member of the group of this name (the CAB's approval of Authorize).
        case groupMembers(String)
    }

    /// The group whose members approve a change in Authorize: the demo's Change Management group, as a PDI's
    /// CAB Approval group.
    static let changeAdvisoryBoard = "Change Management"

    /// The model of `change`: its `chg_model`, else the model of its type.
    static func model(of change: StoredRecord) -> ChangeModel? {
        all.first { $0.sysID == change["chg_model"] } ?? model(ofType: change["type"] ?? "")
    }

    /// The transitions that leave `state`, in declaration order.
    func transitions(from state: String) -> [Transition] {
        transitions.filter { $0.from == state }
    }

    /// The models of a PDI.
    static let all = [normal, standard, emergency]

    /// The model of `type` (`normal`, `standard`, `emergency`), if there is one.
    static func model(ofType type: String) -> ChangeModel? {
        all.first { $0.type == type }
    }

    /// The model named `name` (`Normal`, as the API's `chg_model=Normal` gives it), ignoring case.
    static func model(named name: String) -> ChangeModel? {
        all.first { $0.name.lowercased() == name.lowercased() }
    }

    /// The moves that check nothing but the change being off hold.
    private static let open: [ChangeCondition] = [.notOnHold]
    /// Leaving New: the change must have an assignment group.
    private static let assigned: [ChangeCondition] = [.notOnHold, .assignmentGroupSet]
    /// Entering Implement: the planned dates must be set.
    private static let planned: [ChangeCondition] = [.notOnHold, .plannedDatesSet]
    /// Leaving Implement: no change task may still be open.
    private static let implemented: [ChangeCondition] = [.notOnHold, .noActiveTasks]
    /// Closing: the close code and notes must be set.
    private static let closing: [ChangeCondition] = [.closeCodeSet, .closeNotesSet]

    /// Canceling `states`, which asks nothing.
    private static func cancel(_ states: [String]) -> [Transition] {
        states.map { Transition($0, "4") }
    }

    static let normal = ChangeModel(
        name: "Normal", type: "normal",
        description: "A change that follows the full process: it is assessed and authorized before it is scheduled.",
        isDefault: true, states: ["-5", "-4", "-3", "-2", "-1", "0", "3", "4"],
        transitions: [
            Transition("-5", "-4", assigned), Transition("-4", "-5"), Transition("-4", "-3", open),
            Transition("-4", "-2", open), Transition("-3", "-5"), Transition("-3", "-2", open),
            Transition("-2", "-1", planned), Transition("-1", "0", implemented), Transition("0", "3", closing),
        ] + cancel(["-5", "-4", "-3", "-2", "-1", "0"]),
        approvals: ["-4": .assignmentGroupManager, "-3": .groupMembers(changeAdvisoryBoard)])

    static let emergency = ChangeModel(
        name: "Emergency", type: "emergency",
        description: "A change that must be made at once: it is authorized without an assessment.",
        isDefault: false, states: ["-5", "-3", "-2", "-1", "0", "3", "4"],
        transitions: [
            Transition("-5", "-3", assigned), Transition("-3", "-5"), Transition("-3", "-2", open),
            Transition("-2", "-1", planned), Transition("-1", "0", implemented), Transition("0", "3", closing),
        ] + cancel(["-5", "-3", "-2", "-1", "0"]),
        approvals: ["-3": .groupMembers(changeAdvisoryBoard)])

    static let standard = ChangeModel(
        name: "Standard", type: "standard",
        description: "A pre-approved change made from a standard change template: it is scheduled without approval.",
        isDefault: false, states: ["-5", "-2", "-1", "0", "3", "4"],
        transitions: [
            Transition("-5", "-2", open), Transition("-2", "-1", planned), Transition("-1", "0", implemented),
            Transition("0", "3", closing),
        ] + cancel(["-5", "-2", "-1", "0"]),
        approvals: [:])

    /// The Table API's state model: the moves of each model by `type`, without their conditions.
    static var stateModel: TableRules.StateModel {
        .byField(
            "type",
            Dictionary(
                uniqueKeysWithValues: all.map { model in
                    (
                        model.type,
                        Dictionary(
                            uniqueKeysWithValues: model.states.map { state in
                                (state, Set(model.transitions(from: state).map(\.to)))
                            })
                    )
                }))
    }
}
