/// A job file that cannot be used: every problem found in it, in the order of the file.
public struct JobFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The problems, sorted by line and column.
    public var diagnostics: [Diagnostic]

    /// Creates the error from its diagnostics.
    public init(diagnostics: [Diagnostic]) {
        self.diagnostics = diagnostics
    }

    /// One diagnostic per line.
    public var description: String {
        diagnostics.map(\.description).joined(separator: "\n")
    }
}
