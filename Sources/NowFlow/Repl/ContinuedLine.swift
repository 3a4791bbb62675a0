import Foundation

/// A step or command typed over several lines: a line that ends with `\`, or leaves a bracket open (`{`, `[`,
/// `(` outside quotes), is continued by the next one. The lines are joined with a space (a final `\` dropped), so
/// the joined text reads as the one line it stands for.
///
/// ```swift
/// var input = ContinuedLine()
/// input.add("query: { table: incident,")   // true: the mapping is open
/// input.add("  limit: 5 }")                // false: input.text is the whole step
/// ```
public struct ContinuedLine: Sendable {
    /// The lines so far, joined.
    public private(set) var text = ""
    /// Whether no line was added.
    public var isEmpty: Bool { text.isEmpty && !started }
    private var started = false

    public init() {}

    /// Adds a line; gives whether the text goes on on the next line. A comment line (`#`) never goes on.
    public mutating func add(_ line: String) -> Bool {
        let first = !started
        started = true
        var piece = line
        let escaped = piece.hasSuffix("\\") && !piece.hasSuffix("\\\\")
        if escaped { piece.removeLast() }
        text = first ? piece : text + " " + piece.trimmingCharacters(in: .whitespaces)
        if first, line.trimmingCharacters(in: .whitespaces).hasPrefix("#") { return false }
        return escaped || Self.openBrackets(in: text) > 0
    }

    /// How many brackets are open at the end of `text`, quotes (`"..."` with `\"`, `'...'`) skipped; a quote
    /// opens only where a value starts (after a space, `=`, `:`, `,` or a bracket), so that `it's` is a word.
    static func openBrackets(in text: String) -> Int {
        var depth = 0
        var quote: Character?
        var escape = false
        var previous: Character = " "
        for character in text {
            defer { previous = character }
            if let open = quote {
                if escape {
                    escape = false
                } else if character == "\\" && open == "\"" {
                    escape = true
                } else if character == open {
                    quote = nil
                }
                continue
            }
            switch character {
            case "\"", "'": if previous.isWhitespace || "=:,{[(".contains(previous) { quote = character }
            case "{", "[", "(": depth += 1
            case "}", "]", ")": depth -= 1
            default: break
            }
        }
        return depth
    }
}
