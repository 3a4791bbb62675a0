import Foundation

/// A string with `${ expr }` parts: `"INC ${vars.number} on ${steps.ci.record.name}"`.
///
/// A template that is exactly one `${ expr }` keeps the value's type (a record, a list, a number); otherwise the
/// parts are joined as text. `$${` writes a literal `${`.
struct Template: Sendable, Hashable {
    enum Part: Sendable, Hashable {
        /// A literal run: a slice of the template's text where no `$${` is unescaped in it (no copy of a long
        /// text), else the unescaped text.
        case text(Substring)
        /// An expression, its source text and the offset of that text in the template.
        case expression(Expression, source: String, offset: Int)
    }

    var parts: [Part]
    /// The template as written.
    var source: String

    /// Parses `text`; errors carry the offset in `text`, in characters.
    ///
    /// The text is scanned once as UTF-8 bytes (`$`, `{`, `}` and the quotes are ASCII) for its `${`, `$${` and
    /// closing `}`; its literal runs are then taken whole (as slices of the text, copied only where a `$${` is
    /// unescaped), and a character offset is counted only where an expression starts: a long text costs little more
    /// than its bytes.
    init(parsing text: String) throws(ExpressionError) {
        var contiguous = text
        let scan = contiguous.withUTF8(Scan.init)
        let utf8 = text.utf8
        func index(_ byte: Int) -> String.Index { utf8.index(utf8.startIndex, offsetBy: byte) }
        // The characters before `counted`, counted once, so that each offset costs only the text since the last;
        // while the text is ASCII, its characters are its bytes.
        var counted = (index: text.startIndex, characters: 0)
        func offset(of byte: Int) -> Int {
            let position = index(byte)
            let characters =
                byte <= scan.asciiPrefix
                ? utf8.distance(from: counted.index, to: position) : text.distance(from: counted.index, to: position)
            counted = (position, counted.characters + characters)
            return counted.characters
        }
        var parts: [Part] = []
        // The literal run being read: the unescaped text before `literalStart` (empty while no `$${` came), then
        // the text from `literalStart` on.
        var literal = ""
        var literalStart = 0
        func literalRun(to end: String.Index) -> Substring {
            let rest = text[index(literalStart)..<end]
            return literal.isEmpty ? rest : Substring(literal + rest)
        }
        for mark in scan.marks {
            switch mark {
            case .escape(let at):
                literal += text[index(literalStart)..<index(at)]
                literal += "${"
                literalStart = at + 3
            case .expression(let at, let close):
                guard let close else {
                    throw ExpressionError(message: "'${' is not closed by '}'", offset: offset(of: at))
                }
                let source = String(text[index(at + 2)..<index(close)])
                guard !source.allSatisfy(\.isWhitespace) else {
                    throw ExpressionError(message: "empty '${}'", offset: offset(of: at))
                }
                let run = literalRun(to: index(at))
                if !run.isEmpty { parts.append(.text(run)) }
                literal = ""
                let sourceOffset = offset(of: at + 2)
                parts.append(
                    .expression(
                        try ExpressionParser.parse(source, offset: sourceOffset), source: source, offset: sourceOffset))
                literalStart = close + 1
            }
        }
        let run = literalRun(to: text.endIndex)
        if !run.isEmpty || parts.isEmpty { parts.append(.text(run)) }
        self.parts = parts
        self.source = text
    }

    /// Whether `text` holds `${` (an expression, or the `$${` that writes one), found by a scan of its UTF-8 bytes:
    /// a check made for every scalar of a job file.
    static func marks(_ text: String) -> Bool {
        var contiguous = text
        return contiguous.withUTF8 { bytes in
            var index = 0
            while let dollar = Self.firstDollar(in: bytes, from: index) {
                index = dollar + 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "{") { return true }
            }
            return false
        }
    }

    /// The offset of the first `$` of `bytes` at or after `start`, found by `memchr` (which compares many bytes at
    /// a time).
    private static func firstDollar(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard start < bytes.count, let base = bytes.baseAddress,
            let found = memchr(base + start, Int32(UInt8(ascii: "$")), bytes.count - start)
        else { return nil }
        return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
    }

    /// How many bytes `bytes` starts with that are ASCII, read eight at a time.
    private static func asciiPrefix(of bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        let raw = UnsafeRawPointer(base)
        var index = 0
        let highBits: UInt64 = 0x8080_8080_8080_8080
        while index + 8 <= bytes.count, raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & highBits == 0 {
            index += 8
        }
        while index < bytes.count, bytes[index] < 0x80 { index += 1 }
        return index
    }

    /// The text when the template holds no expression.
    var literal: String? {
        if parts.count == 1, case .text(let text) = parts[0] { String(text) } else { nil }
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

    /// Where a template's marks are, as byte offsets of its UTF-8 text: each `$${` and each `${` with its closing
    /// `}` (none for the first `${` that is not closed, where the scan stops).
    private struct Scan {
        enum Mark {
            /// `$${` at this offset.
            case escape(Int)
            /// `${` at this offset, closed by the `}` at `close`.
            case expression(Int, close: Int?)
        }

        var marks: [Mark] = []
        /// How many bytes the text starts with that are ASCII.
        var asciiPrefix: Int

        init(_ bytes: UnsafeBufferPointer<UInt8>) {
            asciiPrefix = Template.asciiPrefix(of: bytes)
            var index = 0
            while let dollar = Template.firstDollar(in: bytes, from: index) {
                let next = dollar + 1
                if next + 1 < bytes.count, bytes[next] == UInt8(ascii: "$"), bytes[next + 1] == UInt8(ascii: "{") {
                    marks.append(.escape(dollar))
                    index = next + 2
                } else if next < bytes.count, bytes[next] == UInt8(ascii: "{") {
                    let close = Self.closingBrace(in: bytes, from: next + 1)
                    marks.append(.expression(dollar, close: close))
                    guard let close else { return }
                    index = close + 1
                } else {
                    index = next
                }
            }
        }

        /// The offset of the `}` that closes an expression starting at `start`, skipping quoted strings (a `\` in
        /// one escapes the byte after it).
        private static func closingBrace(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
            var index = start
            var quote: UInt8?
            while index < bytes.count {
                let byte = bytes[index]
                if let open = quote {
                    if byte == UInt8(ascii: "\\") {
                        index += 1
                        guard index < bytes.count else { return nil }
                    } else if byte == open {
                        quote = nil
                    }
                } else if byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"") {
                    quote = byte
                } else if byte == UInt8(ascii: "}") {
                    return index
                }
                index += 1
            }
            return nil
        }
    }
}
