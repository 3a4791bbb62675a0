/// One of a job's `outputs:`: a name and the expression whose value it gives at the end of the run (printed,
/// in the JSON report, as a JUnit property, and as `steps.<id>.outputs.<name>` to a job that includes this one).
struct JobOutput: Sendable {
    var name: String
    var expression: Expression
    var source: String
    /// Where the output's name is written.
    var line: Int
    var column: Int
}
