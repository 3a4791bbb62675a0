import NowData

/// The records a `query:` or `where:` selects: those an encoded query matches, or none at all, said why, when a
/// condition compares with an empty list (an instance reads `sys_idIN` with no value as no condition, so such a
/// query is never sent).
enum RecordSelection: Sendable, Hashable {
    case query(EncodedQuery)
    /// No record, because of `reason` (`vars.stale_ids is empty: no record matches`).
    case nothing(reason: String)
}
