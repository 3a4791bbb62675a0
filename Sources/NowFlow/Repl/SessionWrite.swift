import NowData

/// A write the session made to one record (a create, an update or a delete by sys_id), kept for `:history` and
/// `:undo`: what the record was before, and the version the session last left it at.
struct SessionWrite: Sendable {
    enum Kind: String, Sendable {
        case create, update, delete
    }

    /// The version of a record: its `sys_mod_count` and `sys_updated_on`, which every write moves.
    struct Version: Sendable, Hashable {
        var modCount: String
        var updatedOn: String

        /// The version of a record as the instance sends it; nil without those fields.
        init?(_ record: JSONValue) {
            guard let count = record["sys_mod_count"]?.text, let updated = record["sys_updated_on"]?.text else { return nil }
            modCount = count
            updatedOn = updated
        }
    }

    /// The step's id (`_1`, `opened`).
    var stepID: String
    var kind: Kind
    var table: String
    var sysID: String
    /// The record before an update or a delete, every field as read.
    var before: JSONObject?
    /// The fields an update wrote.
    var written: [String]
    /// The record's version after the write (or after the undo of a later write to it); nil after a delete.
    var version: Version?
    /// Whether `:undo` took it back.
    var undone = false
}
