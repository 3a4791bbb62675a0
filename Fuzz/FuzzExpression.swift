// libFuzzer entry for expressions, templates and encoded-query building: any text must parse or give an
// ExpressionError, and evaluating what parses must give a value or an EvaluationError, never a crash or a hang.
// Built by Fuzz/run.sh together with NowData and Sources/NowFlow/Expressions.

private let scope = Scope(
    vars: ["name": "abel^tuter", "count": 3, "ratio": 0.5, "list": ["a", 2]],
    env: ["HOME": "/root"],
    steps: ["q": ["records": [["sys_id": "abc"]], "count": 1]],
    locals: ["item": "INC0010001"])

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzExpression(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
    if let expression = try? ExpressionParser.parse(text) {
        _ = try? expression.evaluate(in: scope)
    }
    if let template = try? Template(parsing: text) {
        _ = try? template.evaluate(in: scope)
        _ = try? EncodedQueryBuilder.render(template, in: scope)
    }
    _ = try? Expression.parseCondition(text)
    return 0
}
