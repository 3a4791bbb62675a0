import Foundation

/// A string with `${ expr }` parts: `"INC ${vars.number} on ${steps.ci.record.name}"`.
///
/// A template that is exactly one `${ expr }` keeps the value's type (a record, a list, a number); otherwise the
/// parts are joined as text. `$${` writes a literal `${`.
struct Template: Sendable, Hashable {
    enum Part: Sendable, Hashable {
        case text(String)
        /// An expression, its source text and the offset of that text in the template.
        case expression(Expression, source: String, offset: Int)
    }

    var parts: [Part]
    /// The template as written.
    var source: String

    /// Parses `text`; errors carry the offset in `text`, in characters.
    ///
    /// The text is scanned as UTF-8 (`$`, `{`, `}` and the quotes are ASCII), its literal runs copied whole, and a
    /// character offset is counted only where an expression starts: a long text costs little more than its bytes.
    init(parsing text: String) throws(ExpressionError) {
        let utf8 = text.utf8
        let end = utf8.endIndex
        var parts: [Part] = []
        var literal = ""
        var literalStart = utf8.startIndex
        var index = utf8.startIndex
        // The characters before `counted`, counted once, so that each offset costs only the text since the last;
        // while the text scanned is ASCII, its characters are its bytes.
        var counted = (index: text.startIndex, characters: 0)
        var ascii = true
        func offset(of position: String.Index) -> Int {
            let characters = ascii ? utf8.distance(from: counted.index, to: position) : text.distance(from: counted.index, to: position)
            counted = (position, counted.characters + characters)
            return counted.characters
        }
        func byte(at position: String.Index) -> UInt8? { position < end ? utf8[position] : nil }
        while index < end {
            guard utf8[index] == UInt8(ascii: "$") else {
                if utf8[index] >= 0x80 { ascii = false }
                index = utf8.index(after: index)
                continue
            }
            let next = utf8.index(after: index)
            if byte(at: next) == UInt8(ascii: "$"), byte(at: utf8.index(after: next)) == UInt8(ascii: "{") {
                literal += text[literalStart..<index] + "${"
                index = utf8.index(next, offsetBy: 2)
                literalStart = index
                continue
            }
            guard byte(at: next) == UInt8(ascii: "{") else {
                index = next
                continue
            }
            let start = utf8.index(after: next)
            guard let close = Self.closingBrace(in: utf8, from: start) else {
                throw ExpressionError(message: "'${' is not closed by '}'", offset: offset(of: index))
            }
            let source = String(text[start..<close])
            guard !source.allSatisfy(\.isWhitespace) else {
                throw ExpressionError(message: "empty '${}'", offset: offset(of: index))
            }
            literal += text[literalStart..<index]
            if !literal.isEmpty {
                parts.append(.text(literal))
                literal = ""
            }
            let sourceOffset = offset(of: start)
            if source.utf8.contains(where: { $0 >= 0x80 }) { ascii = false }
            parts.append(
                .expression(try ExpressionParser.parse(source, offset: sourceOffset), source: source, offset: sourceOffset))
            index = utf8.index(after: close)
            literalStart = index
        }
        literal += text[literalStart..<end]
        if !literal.isEmpty || parts.isEmpty { parts.append(.text(literal)) }
        self.parts = parts
        self.source = text
    }

    /// Whether `text` holds `${` (an expression, or the `$${` that writes one), found by a scan of its UTF-8 bytes:
    /// a check made for every scalar of a job file, which Foundation's `contains` makes slowly.
    static func marks(_ text: String) -> Bool {
        var previous: UInt8 = 0
        for byte in text.utf8 {
            if byte == UInt8(ascii: "{"), previous == UInt8(ascii: "$") { return true }
            previous = byte
        }
        return false
    }

    /// The text when the template holds no expression.
    var literal: String? {
        if parts.count == 1, case .text(let text) = parts[0] { text } else { nil }
    }

    /// The expression when the template is exactly one `${ expr }`.
    var singleExpression: Expression? {
        if parts.count == 1, case .expression(let expression, _, _) = parts[0] { expression } else { nil }
    }

    /// Every expression of the template.
    var expressions: [Expression] {
        parts.compactMap { part in
            if case .expression(let expression, _, _) = part { expression } else { nil }
        }
    }

    /// The index of the `}` that closes an expression starting at `start`, skipping quoted strings (a `\` in one
    /// escapes the byte after it).
    private static func closingBrace(in utf8: String.UTF8View, from start: String.Index) -> String.Index? {
        var index = start
        var quote: UInt8?
        while index < utf8.endIndex {
            let byte = utf8[index]
            if let open = quote {
                if byte == UInt8(ascii: "\\") {
                    index = utf8.index(after: index)
                    guard index < utf8.endIndex else { return nil }
                } else if byte == open {
                    quote = nil
                }
            } else if byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"") {
                quote = byte
            } else if byte == UInt8(ascii: "}") {
                return index
            }
            index = utf8.index(after: index)
        }
        return nil
    }
}
