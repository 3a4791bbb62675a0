/// A problem in a job file, at a line and column: `jobs/x.yaml:3:7: error: unknown key 'qurey'`.
public struct Diagnostic: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file's path as given.
    public var file: String
    /// The 1-based line, 0 when the problem concerns the whole file (it cannot be read).
    public var line: Int
    /// The 1-based column, in characters.
    public var column: Int
    /// What is wrong, and where useful, how to fix it.
    public var message: String

    /// Creates a diagnostic.
    public init(file: String, line: Int, column: Int, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    /// `file:line:column: error: message` (or `file: error: message` without a position).
    public var description: String {
        line > 0 ? "\(file):\(line):\(column): error: \(message)" : "\(file): error: \(message)"
    }
}
