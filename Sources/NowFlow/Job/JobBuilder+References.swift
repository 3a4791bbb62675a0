import Foundation

/// Checking the names an expression uses against what the job declares and the steps before it.
extension JobBuilder {
    /// Records a problem for every reference of `expression` (found in `node`) that cannot resolve: an undeclared
    /// variable, a step that does not exist, runs later or sits inside a foreach, a result field the step's kind
    /// does not produce, an unknown name; and for a literal regular expression that does not compile.
    func checkReferences(_ expression: Expression, in node: YAMLNode) {
        var unresolved = false
        recordUses.note(expression, asForeachItems: readingForeachItems, depth: localNames.count)
        for reference in expression.references {
            if let message = problem(with: reference, at: node.mark) {
                error(at: position(in: node, offset: reference.offset), message)
                unresolved = true
            }
        }
        if !unresolved { _ = type(of: expression, in: node) }
        for (function, arguments, offset) in expression.calls where function == .matches {
            if case .literal(let pattern) = arguments[1], (try? NSRegularExpression(pattern: pattern.text)) == nil {
                error(
                    at: position(in: node, offset: offset),
                    "matches(): '\(pattern.text)' is not a valid regular expression")
            }
        }
    }

    private func problem(with reference: Reference, at mark: YAMLMark) -> String? {
        switch reference.root {
        case "vars":
            guard let name = reference.names.first else {
                return "'vars' needs a name, as in vars.\(knownVariables.sorted().first ?? "name")"
            }
            guard knownVariables.contains(name) else {
                let hint = name.closest(among: knownVariables).map { "; did you mean 'vars.\($0)'?" } ?? ""
                return "vars.\(name): no variable '\(name)' is declared under vars: or set by a set: step\(hint)"
            }
            if let reading = variableBeingRead, let declared = reading.later[name] {
                guard name != reading.name else {
                    return "vars.\(name): variable '\(name)' cannot use itself (variables are evaluated in order)"
                }
                return "vars.\(name): variable '\(reading.name)' cannot use '\(name)', declared after it (line \(declared.line)); variables are evaluated in order"
            }
            return nil
        case "env":
            guard let name = reference.names.first else { return "'env' needs a name, as in env.NOW_USER" }
            guard reference.names.count == 1 else {
                return "env.\(name) is a string; it has no field '\(reference.path.components[2])'"
            }
            return nil
        case "steps":
            guard let id = reference.names.first else { return "'steps' needs a step id, as in steps.<id>.record" }
            if let kind = visibleIDs[id] {
                return resultFieldProblem(reference, id: id, kind: kind)
            }
            if currentIDs.contains(id) {
                return "steps.\(id): a step cannot use its own result (only its retry.until can)"
            }
            if let declared = declaredIDs[id] {
                // An earlier step that is not visible had errors of its own (reported there), unless it sits in a
                // foreach that has ended.
                if declared.mark < mark, !declared.insideForeach || !localNames.isEmpty { return nil }
                if declared.insideForeach {
                    return
                        "steps.\(id): step '\(id)' is inside a foreach (line \(declared.mark.line)); its result is visible only to the steps after it in that foreach"
                }
                return
                    "steps.\(id): step '\(id)' runs later (line \(declared.mark.line)); a step can use only the results of the steps before it"
            }
            let hint = id.closest(among: visibleIDs.keys).map { "; did you mean '\($0)'?" } ?? ""
            return "steps.\(id): no step has the id '\(id)'\(hint)"
        default:
            if localNames.contains(reference.root) { return nil }
            let candidates = ["vars", "env", "steps"] + localNames
            let hint = reference.root.closest(among: candidates).map { "; did you mean '\($0)'?" } ?? ""
            let locals = localNames.isEmpty ? "" : " or a foreach's as: name (\(localNames.joined(separator: ", ")))"
            return "unknown name '\(reference.root)'\(hint) (a reference starts with vars., env., steps.\(locals))"
        }
    }

    private func resultFieldProblem(_ reference: Reference, id: String, kind: StepKind) -> String? {
        guard reference.names.count > 1, let fields = kind.resultFields else { return nil }
        let field = reference.path.components[2]
        guard !fields.contains(field) else {
            if case .include(let include) = kind, reference.names.count > 2 {
                return outputProblem(reference, id: id, include: include)
            }
            return nil
        }
        let hint = field.closest(among: fields).map { "did you mean '\($0)'? " } ?? ""
        let article = kind.name.first.map { "aeiou".contains($0) } == true ? "an" : "a"
        return
            "steps.\(id).\(field): \(article) \(kind.name) step's result has no '\(field)'; \(hint)it has \(fields.alternatives.replacingOccurrences(of: " or ", with: " and "))"
    }

    /// `steps.<id>.outputs.<name>` for an output the included job does not declare.
    private func outputProblem(_ reference: Reference, id: String, include: IncludeStep) -> String? {
        let name = reference.path.components[3]
        let names = include.job.outputs.map(\.name)
        guard !names.contains(name) else { return nil }
        let hint = name.closest(among: names).map { "; did you mean '\($0)'?" } ?? ""
        let declared =
            names.isEmpty ? "it declares none" : "it declares \(names.alternatives.replacingOccurrences(of: " or ", with: " and "))"
        return "steps.\(id).outputs.\(name): \(include.file) has no output '\(name)' (\(declared))\(hint)"
    }
}
