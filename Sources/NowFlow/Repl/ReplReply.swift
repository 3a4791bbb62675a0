/// What the REPL answers to a line: the text to show, and whether the session ends.
public struct ReplReply: Sendable, Hashable {
    /// The text, without a final line break; empty when there is nothing to show.
    public var text: String
    /// The session ends (`:quit`).
    public var quit: Bool

    init(_ text: String, quit: Bool = false) {
        self.text = text
        self.quit = quit
    }
}
