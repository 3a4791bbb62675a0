import NowData

/// A write the session made (a create, an update or a delete, by sys_id or by query), kept for `:history` and
/// `:undo`: each record it wrote, what the record was before, and the version the session last left it at.
struct SessionWrite: Sendable {
    enum Kind: String, Sendable {
        case create, update, delete
    }

    /// The version of a record: its `sys_mod_count` and `sys_updated_on`, which every write moves.
    struct Version: Sendable, Hashable {
        var modCount: String
        var updatedOn: String

        /// The version of a record as the instance sends it; nil without those fields, or without a record.
        init?(_ record: NowRecord?) {
            guard let count = record?.value("sys_mod_count"), let updated = record?.value("sys_updated_on") else {
                return nil
            }
            modCount = count
            updatedOn = updated
        }
    }

    /// One record the write touched.
    struct Record: Sendable {
        var sysID: String
        /// The record before an update or a delete, every field as read.
        var before: NowRecord?
        /// The record's version after the write (or after the undo of a later write to it); nil after a delete.
        var version: Version?
    }

    /// The step's id (`_1`, `opened`).
    var stepID: String
    var kind: Kind
    var table: String
    /// The records written, in order: one for a write by sys_id.
    var records: [Record]
    /// Whether the step chose its records by a query (`where:`, `query:`).
    var byQuery = false
    /// The fields an update wrote.
    var written: [String]
    /// Whether `:undo` took it back.
    var undone = false
    /// The index of its step among the session's recorded steps (nil for a step `:save` does not write).
    var recordedStep: Int?

    /// `fire create incident 9d5e...`, or `_2 update incident 3 records by query`.
    var summary: String {
        let what = byQuery ? "\(records.count) record\(records.count == 1 ? "" : "s") by query" : records.first?.sysID ?? ""
        return "\(stepID) \(kind.rawValue) \(table) \(what)"
    }
}
