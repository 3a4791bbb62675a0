/// A value written in a job file, whose strings may hold `${ ... }` templates.
indirect enum TemplateValue: Sendable, Hashable {
    /// A value with no template: a number, a boolean, null, or a plain text.
    case value(Value)
    case template(Template)
    case list([TemplateValue])
    case map([NamedTemplate])

    /// The value in `scope`.
    func evaluate(in scope: Scope) throws(EvaluationError) -> Value {
        switch self {
        case .value(let value):
            return value
        case .template(let template):
            return try template.evaluate(in: scope)
        case .list(let items):
            var values: [Value] = []
            for item in items { values.append(try item.evaluate(in: scope)) }
            return .list(values)
        case .map(let pairs):
            var fields: [String: Value] = [:]
            for pair in pairs { fields[pair.name] = try pair.value.evaluate(in: scope) }
            return .map(fields)
        }
    }

    /// Every expression held by the value.
    var expressions: [Expression] {
        switch self {
        case .value: []
        case .template(let template): template.expressions
        case .list(let items): items.flatMap(\.expressions)
        case .map(let pairs): pairs.flatMap(\.value.expressions)
        }
    }

    /// The source text of the value, for messages: the template as written, or the literal.
    var sourceText: String {
        switch self {
        case .value(let value): value.text
        case .template(let template): template.source
        case .list, .map: "a list or record"
        }
    }
}
