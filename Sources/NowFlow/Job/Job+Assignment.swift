import NowData

extension Job {
    /// Sets the job's variables in `scope`: first the names only its `vars_files` give, then its `vars:` in order,
    /// each evaluated in the scope so far. A `given` value (a `--var`, a `--vars-file`, an include's `with:`) wins
    /// over the job's `vars_files`, which win over `vars:`.
    func assignVariables(in scope: inout Scope, given: [String: JSONValue]) throws(EvaluationError) {
        let declared = Set(vars.map(\.name))
        for (name, value) in fileVariables where !declared.contains(name) {
            scope.variables[name] = .json(given[name] ?? value)
        }
        for variable in vars {
            if let value = given[variable.name] ?? fileVariables.last(where: { $0.name == variable.name })?.value {
                scope.variables[variable.name] = .json(value)
            } else {
                scope.variables[variable.name] = try variable.value.keptValue(in: scope)
            }
        }
    }
}
