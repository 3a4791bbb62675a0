/// Why JSON reports cannot be merged (``RunReport/merging(_:)``): a file that is not a report of this
/// `schema_version`, is not a shard's, or does not go with the others. The message names the file and, for a value
/// that is not as the contract says, where in it (`shard-2.json: jobs[0].steps[3].status: expected a text`).
public struct ReportMergeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The sentence.
    public var message: String

    init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
