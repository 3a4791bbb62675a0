import NowData

/// Parses the expression language of job files.
///
/// Precedence, loosest first: `||`, `&&`, comparisons (`==` `!=` `<` `<=` `>` `>=` and `in`, not chained), `+`
/// and `-` (left to right), `??` (right to left), `!`, then literals (`'text'`, numbers, `true`, `false`, `null`,
/// lists `[a, b]`), references (`vars.x`, `steps.id.records.0.sys_id`), calls (`len(x)`) and parentheses.
///
/// ```swift
/// let condition = try ExpressionParser.parse("steps.check.record.state == 'Resolved'")
/// ```
struct ExpressionParser {
    /// The deepest nesting of parentheses, `!` and calls accepted.
    static let maximumDepth = 64
    /// The most binary operators an expression may hold (each one nests the tree one level deeper).
    static let maximumOperators = 256

    private let characters: [Character]
    /// Each character's ASCII value (0 for one that is not ASCII): what the grammar's tokens, names, numbers and
    /// spaces are matched against, as bytes (looking into a `Character` is slow).
    private let units: [UInt8]
    private var position = 0
    private var depth = 0
    private var operators = 0

    /// Parses a whole expression; `offset` is added to every position (the expression's place in a template).
    static func parse(_ source: String, offset: Int = 0) throws(ExpressionError) -> Expression {
        var parser = ExpressionParser(source)
        do throws(ExpressionError) {
            let expression = try parser.parseOr()
            parser.skipSpaces()
            guard parser.position == parser.characters.count else {
                throw ExpressionError(
                    message: "unexpected '\(parser.characters[parser.position])' after the expression",
                    offset: parser.position)
            }
            return expression.shifted(by: offset)
        } catch {
            throw ExpressionError(message: error.message, offset: error.offset + offset)
        }
    }

    private init(_ source: String) {
        characters = Array(source)
        // When the text has as many bytes as characters, every character is one ASCII byte.
        let bytes = Array(source.utf8)
        units = bytes.count == characters.count ? bytes : characters.map { $0.asciiValue ?? 0 }
    }

    // MARK: - Grammar

    private mutating func parseOr() throws(ExpressionError) -> Expression {
        var left = try parseAnd()
        while consume("||") {
            try countOperator()
            left = .binary(.or, left, try parseAnd())
        }
        return left
    }

    private mutating func parseAnd() throws(ExpressionError) -> Expression {
        var left = try parseComparison()
        while consume("&&") {
            try countOperator()
            left = .binary(.and, left, try parseComparison())
        }
        return left
    }

    private mutating func parseComparison() throws(ExpressionError) -> Expression {
        let left = try parseAdditive()
        guard let op = comparisonOperator() else { return left }
        try countOperator()
        let right = try parseAdditive()
        if let chained = comparisonOperator(peekOnly: true) {
            throw ExpressionError(
                message:
                    "comparisons cannot be chained ('\(chained.rawValue)' after '\(op.rawValue)'); use && or parentheses",
                offset: position)
        }
        return .binary(op, left, right)
    }

    private mutating func parseAdditive() throws(ExpressionError) -> Expression {
        var left = try parseCoalesce()
        while true {
            let op: Expression.Operator
            if consume("+") {
                op = .plus
            } else if consume("-") {
                op = .minus
            } else {
                return left
            }
            try countOperator()
            left = .binary(op, left, try parseCoalesce())
        }
    }

    private mutating func parseCoalesce() throws(ExpressionError) -> Expression {
        var operands = [try parseUnary()]
        while consume("??") {
            try countOperator()
            operands.append(try parseUnary())
        }
        var result = operands.removeLast()
        while let left = operands.popLast() {
            result = .binary(.coalesce, left, result)
        }
        return result
    }

    private mutating func parseUnary() throws(ExpressionError) -> Expression {
        skipSpaces()
        if peek("!"), !peek("!=") {
            position += 1
            return try nested { (parser: inout ExpressionParser) throws(ExpressionError) in
                .not(try parser.parseUnary())
            }
        }
        return try parsePrimary()
    }

    private mutating func parsePrimary() throws(ExpressionError) -> Expression {
        skipSpaces()
        let start = position
        guard position < characters.count else {
            throw ExpressionError(message: "expected a value at the end of the expression", offset: position)
        }
        let unit = units[position]
        if unit == UInt8(ascii: "(") {
            position += 1
            let inner = try nested { (parser: inout ExpressionParser) throws(ExpressionError) in try parser.parseOr() }
            guard consume(")") else {
                throw ExpressionError(message: "missing ')' for the '(' at column \(start + 1)", offset: position)
            }
            return inner
        }
        if unit == UInt8(ascii: "[") {
            position += 1
            let items = try nested { (parser: inout ExpressionParser) throws(ExpressionError) in
                try parser.parseItems(closing: "]", in: "the list")
            }
            return .list(items)
        }
        if unit == UInt8(ascii: "'") || unit == UInt8(ascii: "\"") {
            return .literal(.string(try parseString(quote: characters[position])))
        }
        if Self.isDigit(unit) || (unit == UInt8(ascii: "-") && nextIsDigit) {
            return .literal(try parseNumber())
        }
        if Self.isNameStart(unit) {
            return try parseName()
        }
        throw ExpressionError(message: "unexpected '\(characters[position])'", offset: start)
    }

    // MARK: - Pieces

    private var nextIsDigit: Bool {
        position + 1 < units.count && Self.isDigit(units[position + 1])
    }

    private mutating func parseString(quote: Character) throws(ExpressionError) -> String {
        let start = position
        position += 1
        var text = ""
        while position < characters.count {
            let character = characters[position]
            position += 1
            if character == quote { return text }
            if character == "\\", position < characters.count {
                let escaped = characters[position]
                position += 1
                switch escaped {
                case "n": text.append("\n")
                case "t": text.append("\t")
                default: text.append(escaped)
                }
            } else {
                text.append(character)
            }
        }
        throw ExpressionError(message: "unterminated string: missing closing \(quote)", offset: start)
    }

    /// A number literal, keeping its text when it is JSON's (`2800`, `0.10`); `007` is `7`.
    private mutating func parseNumber() throws(ExpressionError) -> JSONValue {
        let start = position
        if units[position] == UInt8(ascii: "-") { position += 1 }
        while position < units.count, Self.isDigit(units[position]) { position += 1 }
        if position + 1 < units.count, units[position] == UInt8(ascii: "."), Self.isDigit(units[position + 1]) {
            position += 1
            while position < units.count, Self.isDigit(units[position]) { position += 1 }
        }
        let text = String(decoding: units[start..<position], as: UTF8.self)
        guard let number = JSONNumber(text: text) ?? Double(text).flatMap(JSONNumber.init) else {
            throw ExpressionError(message: "'\(text)' is not a number", offset: start)
        }
        return .number(number)
    }

    private mutating func parseName() throws(ExpressionError) -> Expression {
        let start = position
        let root = readWord()
        skipSpaces()
        if peek("(") {
            guard let function = Expression.Function(rawValue: root) else {
                let known = Expression.Function.allCases.map(\.rawValue).joined(separator: ", ")
                throw ExpressionError(message: "unknown function '\(root)'; the functions are \(known)", offset: start)
            }
            position += 1
            let arguments = try nested { (parser: inout ExpressionParser) throws(ExpressionError) in
                try parser.parseItems(closing: ")", in: "the arguments")
            }
            if let problem = function.arityProblem(given: arguments.count) {
                throw ExpressionError(message: problem, offset: start)
            }
            return .call(function, arguments, offset: start)
        }
        var path: [String] = []
        while position < units.count, units[position] == UInt8(ascii: ".") {
            position += 1
            let part = readWord()
            guard !part.isEmpty else {
                throw ExpressionError(
                    message: "expected a name after '.' in '\(root).\(path.map { $0 + "." }.joined())'",
                    offset: position)
            }
            path.append(part)
        }
        if path.isEmpty {
            switch root {
            case "true": return .literal(.bool(true))
            case "false": return .literal(.bool(false))
            case "null": return .literal(.null)
            default: break
            }
        }
        do {
            return .reference(try Reference([root] + path, offset: start))
        } catch {
            throw ExpressionError(message: error.description, offset: start)
        }
    }

    /// The comma-separated expressions up to `closing` (`)` for arguments, `]` for a list).
    private mutating func parseItems(closing: String, in what: String) throws(ExpressionError) -> [Expression] {
        var items: [Expression] = []
        if consume(closing) { return items }
        while true {
            items.append(try parseOr())
            if consume(closing) { return items }
            guard consume(",") else {
                throw ExpressionError(message: "expected ',' or '\(closing)' in \(what)", offset: position)
            }
        }
    }

    private mutating func readWord() -> String {
        let start = position
        while position < units.count, Self.isNameCharacter(units[position]) { position += 1 }
        return String(decoding: units[start..<position], as: UTF8.self)
    }

    private mutating func nested<T>(
        _ body: (inout ExpressionParser) throws(ExpressionError) -> T
    ) throws(ExpressionError) -> T {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else {
            throw ExpressionError(
                message: "the expression nests deeper than \(Self.maximumDepth) levels", offset: position - 1)
        }
        return try body(&self)
    }

    private mutating func countOperator() throws(ExpressionError) {
        operators += 1
        guard operators <= Self.maximumOperators else {
            throw ExpressionError(
                message: "the expression has more than \(Self.maximumOperators) operators", offset: position)
        }
    }

    private mutating func comparisonOperator(peekOnly: Bool = false) -> Expression.Operator? {
        skipSpaces()
        if peek("in"), position + 2 >= units.count || !Self.isNameCharacter(units[position + 2]) {
            if !peekOnly { position += 2 }
            return .in
        }
        for op in [Expression.Operator.equal, .notEqual, .lessOrEqual, .greaterOrEqual, .less, .greater]
        where peek(op.rawValue) {
            if !peekOnly { position += op.rawValue.count }
            return op
        }
        return nil
    }

    private mutating func consume(_ token: String) -> Bool {
        skipSpaces()
        guard peek(token) else { return false }
        position += token.count
        return true
    }

    private func peek(_ token: String) -> Bool {
        var index = position
        for byte in token.utf8 {
            guard index < units.count, units[index] == byte else { return false }
            index += 1
        }
        return true
    }

    private mutating func skipSpaces() {
        while position < units.count,
            Self.isSpace(units[position]) || (units[position] == 0 && characters[position].isWhitespace)
        {
            position += 1
        }
    }

    /// An ASCII letter or `_`.
    private static func isNameStart(_ unit: UInt8) -> Bool {
        isLetter(unit) || unit == UInt8(ascii: "_")
    }

    /// An ASCII letter or digit, `_` or `-`.
    private static func isNameCharacter(_ unit: UInt8) -> Bool {
        isLetter(unit) || isDigit(unit) || unit == UInt8(ascii: "_") || unit == UInt8(ascii: "-")
    }

    private static func isLetter(_ unit: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(unit) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(unit)
    }

    private static func isDigit(_ unit: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(unit)
    }

    /// ASCII white space: space, tab, line feed, vertical tab, form feed, carriage return (what
    /// `Character.isWhitespace` says of an ASCII character).
    private static func isSpace(_ unit: UInt8) -> Bool {
        unit == UInt8(ascii: " ") || (0x09...0x0D).contains(unit)
    }
}
