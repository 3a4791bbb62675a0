/// A scheduling conflict of a change request, as conflict checking finds it and records it (a `conflict` record).
///
/// One kind is checked, a PDI's first: **CI Already Scheduled** (`ci_already_scheduled`), another active change on
/// the same configuration item (`cmdb_ci`) whose planned window (`start_date` to `end_date`) overlaps this one's.
/// Blackout and maintenance schedules, parent and child CIs, affected CIs and the assignee's other changes are not
/// checked.
struct ChangeConflict: Sendable, Equatable {
    /// The conflict's `type` (`ci_already_scheduled`).
    let type: String
    let configurationItem: String
    let conflictingChange: String

    /// The conflicts of `change` (its stored values) among the active changes of `changes`; empty without a
    /// configuration item.
    static func conflicts(
        of change: StoredRecord, in changes: TableDefinition, _ store: RecordStore, _ db: SQLiteConnection
    ) throws -> [ChangeConflict] {
        guard let item = change["cmdb_ci"], !item.isEmpty, let start = change["start_date"],
            let end = change["end_date"]
        else { return [] }
        let overlapping = try store.select(
            changes,
            where: "\"cmdb_ci\" = ? AND \"sys_id\" <> ? AND \"active\" = 1 AND \"start_date\" < ? AND "
                + "\"end_date\" > ?",
            [.text(item), .text(change["sys_id"] ?? ""), .text(end), .text(start)], orderBy: "\"number\"",
            limit: -1, offset: 0, db)
        return overlapping.map {
            ChangeConflict(type: "ci_already_scheduled", configurationItem: item, conflictingChange: $0["sys_id"] ?? "")
        }
    }
}
