/// A record a run created, updated or deleted, so that a half-failed run can be finished or undone by hand.
public struct TouchedRecord: Sendable, Hashable, Codable {
    /// What happened to the record.
    public enum Action: String, Sendable, Hashable, Codable {
        /// The run created the record.
        case created
        /// The run changed the record's fields.
        case updated
        /// The run deleted the record.
        case deleted
    }

    /// Created, updated or deleted.
    public var action: Action
    /// The record's table.
    public var table: String
    /// The record's sys_id.
    public var sysID: String
    /// The label of the step that touched it.
    public var step: String

    enum CodingKeys: String, CodingKey {
        case action, table
        case sysID = "sys_id"
        case step
    }
}
