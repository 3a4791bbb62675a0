import Foundation

/// A scheduling conflict of a change request, as conflict checking finds it and records it (a `conflict` record).
///
/// Three kinds are checked, for the change's configuration item (`cmdb_ci`) and planned window (`start_date` to
/// `end_date`):
/// - **CI Already Scheduled** (`ci_already_scheduled`): another active change on the same item whose planned window
///   overlaps this one's;
/// - **Blackout** (`blackout`): a window of a blackout schedule of the item (``ChangeSchedule``) overlaps it;
/// - **Not In Maintenance Window** (`not_in_maintenance_window`): the item has a maintenance schedule and no window
///   of it holds the whole change.
///
/// Parent and child CIs, affected CIs and the assignee's other changes are not checked.
struct ChangeConflict: Sendable, Equatable {
    /// The conflict's `type` (`ci_already_scheduled`).
    let type: String
    let configurationItem: String
    /// The other change of a `ci_already_scheduled` conflict; empty otherwise.
    let conflictingChange: String
    /// The schedule of a `blackout` or `not_in_maintenance_window` conflict; empty otherwise.
    let schedule: String

    /// The conflicts of `change` (its stored values) among the active changes of `changes` and the item's
    /// `schedules`; empty without a configuration item or planned window.
    static func conflicts(
        of change: StoredRecord, in changes: TableDefinition, schedules: [ChangeSchedule], _ store: RecordStore,
        _ db: SQLiteConnection
    ) throws -> [ChangeConflict] {
        guard let item = change["cmdb_ci"], !item.isEmpty, let start = change["start_date"],
            let end = change["end_date"], let from = ChangeSchedule.date(start), let to = ChangeSchedule.date(end),
            to > from
        else { return [] }
        let overlapping = try store.select(
            changes,
            where: "\"cmdb_ci\" = ? AND \"sys_id\" <> ? AND \"active\" = 1 AND \"start_date\" < ? AND "
                + "\"end_date\" > ?",
            [.text(item), .text(change["sys_id"] ?? ""), .text(end), .text(start)], orderBy: "\"number\"",
            limit: -1, offset: 0, db)
        let slot = DateInterval(start: from, end: to)
        return overlapping.map {
            ChangeConflict(
                type: "ci_already_scheduled", configurationItem: item, conflictingChange: $0["sys_id"] ?? "",
                schedule: "")
        }
            + schedules.compactMap { schedule in
                switch schedule.kind {
                case .blackout where schedule.overlaps(slot):
                    ChangeConflict(
                        type: "blackout", configurationItem: item, conflictingChange: "", schedule: schedule.sysID)
                case .maintenance where !schedule.contains(slot):
                    ChangeConflict(
                        type: "not_in_maintenance_window", configurationItem: item, conflictingChange: "",
                        schedule: schedule.sysID)
                default: nil
                }
            }
    }
}
