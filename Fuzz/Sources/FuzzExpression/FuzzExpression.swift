// Expressions, templates and encoded-query building: any text must parse or give an ExpressionError, and
// evaluating what parses must give a value or an EvaluationError, never a crash or a hang.
import FuzzSupport
import NowData
@testable import NowFlow

@main
enum FuzzExpression {
    static let scope = Scope(
        vars: ["name": "abel^tuter", "count": 3, "ratio": 0.5, "list": ["a", 2]],
        env: ["HOME": "/root"],
        steps: ["q": .records([NowRecord(fields: ["sys_id": NowRecord.Field(value: "abc")])])],
        locals: ["item": "INC0010001"])

    static func main() {
        Fuzzer.run { start, count in
            let text = Fuzzer.text(start, count)
            if let expression = try? ExpressionParser.parse(text) {
                _ = try? expression.evaluate(in: FuzzExpression.scope)
            }
            if let template = try? Template(parsing: text) {
                _ = try? template.evaluate(in: FuzzExpression.scope)
                _ = try? EncodedQueryBuilder.render(template, in: FuzzExpression.scope)
            }
            _ = try? Expression.parseCondition(text)
            return 0
        }
    }
}
