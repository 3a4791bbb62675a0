/// A risk condition of the Change Management API's risk calculation (`PATCH /change/{sys_id}/risk`): the first of
/// ``all`` that a change meets sets its `risk` and `impact`. A deterministic stand-in for a PDI's risk conditions
/// and risk assessments, which it does not model:
///
/// | Condition | Risk | Impact |
/// |---|---|---|
/// | Emergency change | 2 (High) | 1 - High |
/// | Production system (`production_system`) | 2 (High) | 2 - Medium |
/// | Scheduling conflicts (`conflict_status` Conflict) | 3 (Moderate) | 2 - Medium |
/// | Outside the maintenance schedule (`outside_maintenance_schedule`) | 3 (Moderate) | 2 - Medium |
/// | Standard change | 4 (Low) | 3 - Low |
/// | Any other change | 3 (Moderate) | 3 - Low |
struct ChangeRiskCondition: Sendable {
    let name: String
    /// The `change_request.risk` value the condition sets (`1` Very High to `4` Low).
    let risk: String
    /// The `change_request.impact` value it sets (`1` High to `3` Low).
    let impact: String
    /// The stored field and value the change must have; nil: every change.
    let field: (name: String, value: String)?

    /// The conditions, in the order they are evaluated.
    static let all = [
        ChangeRiskCondition(name: "Emergency change", risk: "2", impact: "1", field: ("type", "emergency")),
        ChangeRiskCondition(name: "Production system", risk: "2", impact: "2", field: ("production_system", "true")),
        ChangeRiskCondition(name: "Scheduling conflicts", risk: "3", impact: "2", field: ("conflict_status", "Conflict")),
        ChangeRiskCondition(
            name: "Outside the maintenance schedule", risk: "3", impact: "2",
            field: ("outside_maintenance_schedule", "true")),
        ChangeRiskCondition(name: "Standard change", risk: "4", impact: "3", field: ("type", "standard")),
        ChangeRiskCondition(name: "Any other change", risk: "3", impact: "3", field: nil),
    ]

    /// The first condition `change` (its stored values) meets.
    static func condition(for change: StoredRecord) -> ChangeRiskCondition {
        all.first { condition in condition.field.map { change[$0.name] == $0.value } ?? true } ?? all[all.count - 1]
    }
}
