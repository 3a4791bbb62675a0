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

    /// Parses `text`; errors carry the offset in `text`.
    init(parsing text: String) throws(ExpressionError) {
        let characters = Array(text)
        var parts: [Part] = []
        var literal = ""
        var index = 0
        while index < characters.count {
            if characters[index] == "$", index + 2 < characters.count, characters[index + 1] == "$",
                characters[index + 2] == "{"
            {
                literal += "${"
                index += 3
                continue
            }
            guard characters[index] == "$", index + 1 < characters.count, characters[index + 1] == "{" else {
                literal.append(characters[index])
                index += 1
                continue
            }
            let start = index + 2
            guard let end = Self.closingBrace(in: characters, from: start) else {
                throw ExpressionError(message: "'${' is not closed by '}'", offset: index)
            }
            let source = String(characters[start..<end])
            guard !source.allSatisfy(\.isWhitespace) else {
                throw ExpressionError(message: "empty '${}'", offset: index)
            }
            if !literal.isEmpty {
                parts.append(.text(literal))
                literal = ""
            }
            parts.append(.expression(try ExpressionParser.parse(source, offset: start), source: source, offset: start))
            index = end + 1
        }
        if !literal.isEmpty || parts.isEmpty { parts.append(.text(literal)) }
        self.parts = parts
        self.source = text
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

    /// The index of the `}` that closes an expression starting at `start`, skipping quoted strings.
    private static func closingBrace(in characters: [Character], from start: Int) -> Int? {
        var index = start
        var quote: Character?
        while index < characters.count {
            let character = characters[index]
            if let open = quote {
                if character == "\\" {
                    index += 1
                } else if character == open {
                    quote = nil
                }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if character == "}" {
                return index
            }
            index += 1
        }
        return nil
    }
}
