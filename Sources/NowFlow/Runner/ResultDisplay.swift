/// How `nowflow run` shows each step's result under its line (text output without `--quiet`): the records a query
/// or get read as an aligned table, the identifying fields and the fields a write set, the value an extract or set
/// gave. On a terminal the tables fit its width; otherwise (`width` nil: a pipe, a file, a CI log) no value is cut.
///
/// ```swift
/// var options = RunOptions(instanceURL: url)
/// options.display = ResultDisplay(width: 100, timeZone: "Europe/Paris")
/// ```
public struct ResultDisplay: Sendable, Hashable {
    /// The width the tables fit, in characters; nil to show every value whole, however wide the lines.
    public var width: Int?
    /// The indentation of the lines under a step's line (the width of `ok   `).
    static let indent = "     "

    /// The zone dates are shown in (`--tz`); nil for the job's `coder.timezone`.
    public var timeZone: String?

    /// A display `width` characters wide (nil: values whole), dates in `timeZone` (nil: the job's).
    public init(width: Int?, timeZone: String? = nil) {
        self.width = width
        self.timeZone = timeZone
    }
}
