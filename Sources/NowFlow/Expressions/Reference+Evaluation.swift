import NowData

extension Reference {
    /// The value the reference names, as JSON (``value(in:)``).
    func resolve(in scope: Scope) throws(EvaluationError) -> JSONValue {
        try value(in: scope).json
    }

    /// The value the reference names, a record or records keeping their type; a path that names no value fails
    /// with ``DotPathError``'s message for the whole reference, missing (so that `??` replaces it) when a key or an
    /// index is not there.
    func value(in scope: Scope) throws(EvaluationError) -> ExpressionValue {
        switch root {
        case "vars", "env", "steps":
            guard let name = names.first else {
                throw EvaluationError(message: "'\(root)' needs a name after it, as in \(root).name")
            }
            switch root {
            case "vars":
                guard let value = scope.variables[name] else { throw missing(name, "no variable '\(name)' is set") }
                return try walk(value)
            case "env":
                guard let value = scope.env[name] else {
                    throw missing(name, "the environment variable \(name) is not set")
                }
                return try walk(.json(.string(value)))
            default:
                guard let result = scope.steps[name] else {
                    throw missing(name, "step '\(name)' has no result (it did not run, or failed)")
                }
                do {
                    return try result.value(at: inner)
                } catch {
                    throw whole(error)
                }
            }
        default:
            guard let local = scope.locals[root] else {
                throw EvaluationError(message: "unknown name '\(root)'", isMissing: true)
            }
            return try walk(local)
        }
    }

    /// The value at ``inner`` in `value`.
    private func walk(_ value: ExpressionValue) throws(EvaluationError) -> ExpressionValue {
        do {
            return try value.value(at: inner)
        } catch {
            throw whole(error)
        }
    }

    /// A path error inside the value as an error of the whole reference.
    private func whole(_ error: DotPathError) -> EvaluationError {
        let whole = DotPathError(path: path.text, component: error.component + innerStart, reason: error.reason)
        return EvaluationError(message: whole.description, isMissing: whole.namesAbsentValue)
    }

    /// `vars.<name>: ...`: a name that has no value, missing so that `??` replaces it.
    private func missing(_ name: String, _ what: String) -> EvaluationError {
        EvaluationError(message: "\(root).\(name): \(what)", isMissing: true)
    }
}
