extension Reference {
    /// The value the reference names.
    func resolve(in scope: Scope) throws(EvaluationError) -> Value {
        var remaining = path[...]
        var value: Value
        var walked = root
        switch root {
        case "vars", "env", "steps":
            guard let name = remaining.popFirst() else {
                throw EvaluationError(message: "'\(root)' needs a name after it, as in \(root).name")
            }
            walked += "." + name
            let found: Value? =
                switch root {
                case "vars": scope.vars[name]
                case "env": scope.env[name].map(Value.string)
                default: scope.steps[name]
                }
            guard let found else {
                let what =
                    switch root {
                    case "vars": "no variable '\(name)' is set"
                    case "env": "the environment variable \(name) is not set"
                    default: "step '\(name)' has no result (it did not run, or failed)"
                    }
                throw EvaluationError(message: "\(walked): \(what)", isMissing: true)
            }
            value = found
        default:
            guard let local = scope.locals[root] else {
                throw EvaluationError(message: "unknown name '\(root)'", isMissing: true)
            }
            value = local
        }
        for part in remaining {
            value = try value.member(part, of: walked)
            walked += "." + part
        }
        return value
    }
}
