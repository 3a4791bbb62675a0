/// A record a write by query concerns, as the second opinion's read returned it
/// (``JobExecution/verifiedMatches(_:query:max:verb:)``): its sys_id and its name before the write.
struct VerifiedMatch: Sendable, Hashable {
    var sysID: String
    /// The record's ``RecordName`` as read before the write; nil when it has none.
    var name: RecordName?
}
