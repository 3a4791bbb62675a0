/// A record a run created, updated or deleted (or may have created), so that a half-failed run can be finished or undone by hand.
public struct TouchedRecord: Sendable, Hashable {
    /// What happened to the record.
    public enum Action: String, Sendable, Hashable, CaseIterable {
        /// The run created the record.
        case created
        /// The run changed the record's fields.
        case updated
        /// The run deleted the record.
        case deleted
        /// The run sent a create with this sys_id and no answer came (a lost connection or a server failure):
        /// the record may exist. Look it up before finishing or undoing the run by hand.
        case possiblyCreated = "possibly created"
    }

    /// Created, updated or deleted.
    public var action: Action
    /// The record's table.
    public var table: String
    /// The record's sys_id.
    public var sysID: String
    /// The label of the step that touched it.
    public var step: String
}
