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

    /// The source line and a caret under the column, for a YAML error; nil otherwise.
    public var excerpt: String?

    /// A warning says what is likely wrong without refusing the job (a value that is not one of its field's
    /// choices); an error refuses it.
    public var isWarning: Bool

    /// Creates a diagnostic.
    public init(file: String, line: Int, column: Int, message: String, excerpt: String? = nil, isWarning: Bool = false) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
        self.excerpt = excerpt
        self.isWarning = isWarning
    }

    /// The excerpt of `text` at `line` and `column`: the line, and a caret under the column (tabs kept, so that
    /// the caret lines up in a terminal).
    static func excerpt(of text: String, line: Int, column: Int) -> String? {
        guard line > 0 else { return nil }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard line <= lines.count else { return nil }
        let source = lines[line - 1].replacingOccurrences(of: "\r", with: "")
        let lead = source.prefix(max(column - 1, 0)).map { $0 == "\t" ? "\t" : " " }.joined()
        return source + "\n" + lead + "^"
    }

    /// `diagnostics` in the order a reader meets them: those of `file` by line and column (in the order found where
    /// equal), then those of other files (included jobs, vars files), each file's in the order found.
    public static func inFileOrder(_ diagnostics: [Diagnostic], of file: String) -> [Diagnostic] {
        let own = diagnostics.enumerated().filter { $0.element.file == file }.sorted { a, b in
            (a.element.line, a.element.column, a.offset) < (b.element.line, b.element.column, b.offset)
        }.map(\.element)
        return own + diagnostics.filter { $0.file != file }
    }

    /// `file:line:column: error: message` (or `file: error: message` without a position; `warning:` for a
    /// warning), then the excerpt's lines when there is one.
    public var description: String {
        let severity = isWarning ? "warning" : "error"
        // An empty path (`nowflow validate ""`) is shown as '', so that the line does not start with a colon.
        let file = self.file.isEmpty ? "''" : self.file
        let text = line > 0 ? "\(file):\(line):\(column): \(severity): \(message)" : "\(file): \(severity): \(message)"
        return excerpt.map { text + "\n" + $0 } ?? text
    }
}
