import NowData

extension Template {
    /// The template as the text of a message (an assertion's `message:`): like ``evaluate(in:)``'s text, but a
    /// `${...}` whose value is empty (null or `""`) is shown as `''`, so that no message starts with a blank or
    /// holds two (`'' was not resolved`, not ` was not resolved`).
    func message(in scope: Scope) throws(EvaluationError) -> String {
        var text = ""
        for part in parts {
            switch part {
            case .text(let literal): text += literal
            case .expression(let expression, _, _):
                let value = try expression.evaluate(in: scope).text
                text += value.isEmpty ? "''" : value
            }
        }
        return text
    }
}
