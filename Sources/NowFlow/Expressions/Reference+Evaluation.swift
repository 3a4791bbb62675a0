import NowData

extension Reference {
    /// The value the reference names; a path that names no value fails with ``DotPathError``'s message for the
    /// whole reference, missing (so that `??` replaces it) when a key or an index is not there.
    func resolve(in scope: Scope) throws(EvaluationError) -> JSONValue {
        let value: JSONValue
        switch root {
        case "vars", "env", "steps":
            guard let name = names.first else {
                throw EvaluationError(message: "'\(root)' needs a name after it, as in \(root).name")
            }
            let found: JSONValue? =
                switch root {
                case "vars": scope.vars[name]
                case "env": scope.env[name].map(JSONValue.string)
                default: scope.steps[name]?.json
                }
            guard let found else {
                let what =
                    switch root {
                    case "vars": "no variable '\(name)' is set"
                    case "env": "the environment variable \(name) is not set"
                    default: "step '\(name)' has no result (it did not run, or failed)"
                    }
                throw EvaluationError(message: "\(root).\(name): \(what)", isMissing: true)
            }
            value = found
        default:
            guard let local = scope.locals[root] else {
                throw EvaluationError(message: "unknown name '\(root)'", isMissing: true)
            }
            value = local
        }
        do {
            return try value.value(at: inner)
        } catch {
            let whole = DotPathError(path: path.text, component: error.component + innerStart, reason: error.reason)
            throw EvaluationError(message: whole.description, isMissing: whole.namesAbsentValue)
        }
    }
}
