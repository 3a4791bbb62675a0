/// Why the local instance could not start: a bad dictionary file or a database that cannot be opened.
public struct LocalInstanceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong and where, such as `schema.json: table "u_audit": field "u_ci": unknown reference table "cmdb"`.
    public var description: String

    init(_ description: String) {
        self.description = description
    }
}
