import NowData

extension Template {
    /// The template's value: the value itself for a single `${ expr }`, the joined text otherwise.
    func evaluate(in scope: Scope) throws(EvaluationError) -> JSONValue {
        if let expression = singleExpression { return try expression.evaluate(in: scope) }
        var text = ""
        for part in parts {
            switch part {
            case .text(let literal): text += literal
            case .expression(let expression, _, _): text += try expression.evaluate(in: scope).text
            }
        }
        return .string(text)
    }
}
