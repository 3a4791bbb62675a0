import Foundation

extension Expression {
    /// Parses a condition written bare (`steps.a.count > 0`) or as one template (`${ steps.a.count > 0 }`).
    static func parseCondition(_ text: String) throws(ExpressionError) -> Expression {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("${"), trimmed.hasSuffix("}") {
            let leading = text.prefix { $0 == " " || $0 == "\t" }.count
            let template = try Template(parsing: trimmed)
            if let expression = template.singleExpression {
                return expression.shifted(by: leading)
            }
        }
        return try ExpressionParser.parse(text)
    }

    /// The same expression with every offset moved by `offset`.
    func shifted(by offset: Int) -> Expression {
        guard offset != 0 else { return self }
        switch self {
        case .literal: return self
        case .list(let items): return .list(items.map { $0.shifted(by: offset) })
        case .reference(var reference):
            reference.offset += offset
            return .reference(reference)
        case .not(let operand): return .not(operand.shifted(by: offset))
        case .binary(let op, let left, let right):
            return .binary(op, left.shifted(by: offset), right.shifted(by: offset))
        case .call(let function, let arguments, let start):
            return .call(function, arguments.map { $0.shifted(by: offset) }, offset: start + offset)
        }
    }
}
