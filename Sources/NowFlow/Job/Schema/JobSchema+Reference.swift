/// The job schema for a person: each mapping's keys with their types and what they are for, as `--help` lists
/// options.
extension JobSchema {
    /// The whole reference: the job's keys, the options of every step, then each kind.
    static var reference: String {
        var lines = ["A job file's keys (* required):"] + listing(job, indent: "  ")
        lines += ["", "Every step has one kind and may have:"] + listing(step, indent: "  ")
        for kind in kinds { lines += [""] + listing(kind) }
        return lines.joined(separator: "\n")
    }

    /// The reference of the kind `name` (its parameters, then the mappings among them); nil when there is no such
    /// kind.
    static func reference(ofKind name: String) -> String? {
        kind(name).map { (listing($0)).joined(separator: "\n") }
    }

    private static func listing(_ kind: StepSchema) -> [String] {
        var lines = ["\(kind.name): \(kind.summary) Its value: \(kind.type.summary)."]
        if let parameters = kind.parameters { lines += listing(parameters, indent: "  ") }
        if !kind.stepKeys.isEmpty {
            lines.append("  Beside it in the step:")
            lines += listing(SchemaMapping(kind.name, kind.stepKeys), indent: "    ")
        }
        let results = kind.results.map { $0.joined(separator: ", ") } ?? "the value itself"
        lines.append("  Result (steps.<id>): \(results)")
        return lines
    }

    /// One line per key (`name*  type  summary`), each mapping's own keys below it.
    private static func listing(_ mapping: SchemaMapping, indent: String) -> [String] {
        let width = mapping.keys.map { $0.name.count + ($0.isRequired ? 1 : 0) }.max() ?? 0
        let typeWidth = mapping.keys.map(\.type.summary.count).max() ?? 0
        var lines: [String] = []
        for key in mapping.keys {
            let name = key.name + (key.isRequired ? "*" : "")
            let type = key.type.summary
            lines.append(
                indent + name + String(repeating: " ", count: width - name.count + 2) + type
                    + String(repeating: " ", count: typeWidth - type.count + 2) + key.summary)
            switch key.type {
            case .mapping(let inner), .expressionOrMapping(let inner):
                lines += listing(inner, indent: indent + "  ")
            default: break
            }
        }
        return lines
    }
}
