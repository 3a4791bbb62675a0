/// A record a run created, updated or deleted, so that a half-failed run can be finished or undone by hand.
public struct TouchedRecord: Sendable, Hashable, Codable {
    public enum Action: String, Sendable, Hashable, Codable {
        case created, updated, deleted
    }

    public var action: Action
    public var table: String
    public var sysID: String
    /// The label of the step that touched it.
    public var step: String

    enum CodingKeys: String, CodingKey {
        case action, table, sysID = "sys_id", step
    }
}
