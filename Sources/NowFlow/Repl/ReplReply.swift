/// What the REPL answers to a line: the text to show, and whether the session ends.
public struct ReplReply: Sendable, Hashable {
    /// A question the line editor asks on a terminal before doing what the line asked (`:save` over a file that
    /// exists), and the line that does it when the answer is yes.
    public struct Confirmation: Sendable, Hashable {
        /// The question, as a prompt: `walk.yaml exists; write over it? [y/N] `.
        public var question: String
        /// The line to handle on yes (`:save! walk.yaml`).
        public var line: String
    }

    /// The text, without a final line break; empty when there is nothing to show. With a confirmation, the answer
    /// where no one can be asked (a pipe).
    public var text: String
    /// The session ends (`:quit`).
    public var quit: Bool
    /// The line was rejected: it is not a step or a command the session can read (bad syntax, an unknown kind,
    /// command, table or field, a bad argument), so nothing ran. A piped session stops there unless told to go on.
    public var rejected: Bool
    /// The question to ask first on a terminal; nil for none.
    public var confirmation: Confirmation?

    /// The answer to a confirmation answered no.
    public static let notDone = ReplReply("not done")

    init(_ text: String, quit: Bool = false, confirmation: Confirmation? = nil, rejected: Bool = false) {
        self.text = text
        self.quit = quit
        self.confirmation = confirmation
        self.rejected = rejected
    }

    /// The reply to a rejected line: `error at column N: message` (`error: message` without a column).
    static func rejection(_ message: String, column: Int) -> ReplReply {
        ReplReply(errorText(message, column: column), rejected: true)
    }

    /// How a reply says what went wrong: `error at column N: message`, or `error: message` for column 0 (the
    /// whole line, or no line: a command that could not do what it was asked).
    static func errorText(_ message: String, column: Int) -> String {
        column > 0 ? "error at column \(column): \(message)" : "error: \(message)"
    }
}
