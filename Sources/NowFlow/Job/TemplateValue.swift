import NowData

/// A value written in a job file, whose strings may hold `${ ... }` templates.
///
/// This is not a ``JSONValue`` because it carries more than a value: a template is an expression still to be
/// evaluated (and checked at validation, with its position), and only evaluating the whole value in a scope gives
/// the `JSONValue` that steps, variables and requests use. A part without templates is a `JSONValue` already.
indirect enum TemplateValue: Sendable, Hashable {
    /// A value with no template: a number (with the text written in the file), a boolean, null, or a plain text.
    case value(JSONValue)
    case template(Template)
    case array([TemplateValue])
    /// The members of a mapping, in file order.
    case object([NamedTemplate])

    /// The value in `scope`.
    func evaluate(in scope: Scope) throws(EvaluationError) -> JSONValue {
        switch self {
        case .value(let value):
            return value
        case .template(let template):
            return try template.evaluate(in: scope)
        case .array(let items):
            var values: [JSONValue] = []
            for item in items { values.append(try item.evaluate(in: scope)) }
            return .array(values)
        case .object(let pairs):
            var members = JSONObject()
            for pair in pairs { members[pair.name] = try pair.value.evaluate(in: scope) }
            return .object(members)
        }
    }

    /// The value as a variable keeps it (``ExpressionValue/kept``): a single `${ expr }`'s value keeps the type of
    /// a record or records; any other value is its JSON.
    func keptValue(in scope: Scope) throws(EvaluationError) -> ExpressionValue {
        guard case .template(let template) = self, let expression = template.singleExpression else {
            return .json(try evaluate(in: scope))
        }
        return try expression.value(in: scope).kept
    }

    /// Every expression held by the value.
    var expressions: [Expression] {
        switch self {
        case .value: []
        case .template(let template): template.expressions
        case .array(let items): items.flatMap(\.expressions)
        case .object(let pairs): pairs.flatMap(\.value.expressions)
        }
    }

    /// The source text of the value, for messages: the template as written, or the literal.
    var sourceText: String {
        switch self {
        case .value(let value): value.text
        case .template(let template): template.source
        case .array: "an array"
        case .object: "an object"
        }
    }
}
