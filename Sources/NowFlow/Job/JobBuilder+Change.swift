/// Reading `change` and `import`: the Change Management and Import Set APIs.
extension JobBuilder {
    /// The `change` step, or nil after recording its problems.
    func change(_ node: YAMLNode) -> ChangeStep? {
        guard let pairs = mapping(node, "change") else { return nil }
        if let parameters = JobSchema.kind("change")?.parameters { checkKeys(pairs, of: parameters) }
        let given = ["template", "model", "sys_id"].filter { value(pairs, $0) != nil }
        guard given.count == 1, let key = given.first, let targetNode = value(pairs, key) else {
            if given.count > 1, let second = value(pairs, given[1]) {
                let both = given.joined(separator: " and ")
                error(at: second.mark, "change takes one of template:, model: or sys_id:, not \(both)")
            } else {
                error(
                    at: node.mark,
                    "change needs template: (a standard change template's name or sys_id), model: (Normal, Emergency, "
                        + "Standard) or sys_id: (an existing change)")
            }
            return nil
        }
        let fields = value(pairs, "fields") == nil ? [] : recordFields(pairs, in: "change", at: node.mark)
        var states: [String] = []
        if let statesNode = value(pairs, "states"), let names = names(statesNode, "change.states") {
            for name in names
            where !ChangeStep.stateNames.contains(name.lowercased()) && !ChangeStep.stateValues.contains(name) {
                let known = ChangeStep.stateNames.joined(separator: ", ")
                error(at: statesNode.mark, "change.states: '\(name)' is not a change request state (\(known))")
                return nil
            }
            states = names.map { $0.lowercased() }
        }
        if key == "sys_id", fields?.isEmpty ?? true, states.isEmpty {
            error(at: node.mark, "change with sys_id: needs fields: or states: (what to do to the change)")
            return nil
        }
        guard let template = templateText(targetNode, "change.\(key)"), let fields else { return nil }
        let target: ChangeStep.Target =
            switch key {
            case "template": .template(template)
            case "model": .model(template)
            default: .sysID(template)
            }
        return ChangeStep(target: target, fields: fields, states: states)
    }

    /// The `import` step, or nil after recording its problems.
    func importRows(_ node: YAMLNode) -> ImportStep? {
        guard let pairs = mapping(node, "import") else { return nil }
        if let parameters = JobSchema.kind("import")?.parameters { checkKeys(pairs, of: parameters) }
        let table = requiredTemplate(pairs, "table", in: "import", at: node.mark)
        if let tableNode = value(pairs, "table"), let name = table?.literal, !NameUse.isTableName(name) {
            error(at: tableNode.mark, "'\(name)' is not a table name (lowercase letters, digits and '_')")
        }
        let fileNode = value(pairs, "file")
        let rowsNode = value(pairs, "rows")
        let source: ImportStep.Source?
        switch (fileNode, rowsNode) {
        case (let fileNode?, nil): source = templateText(fileNode, "import.file").map(ImportStep.Source.file)
        case (nil, let rowsNode?): source = templateValue(rowsNode).map(ImportStep.Source.rows)
        case (_?, let rowsNode?):
            error(at: rowsNode.mark, "import takes file: or rows:, not both")
            return nil
        case (nil, nil):
            error(at: node.mark, "import needs file: (a CSV file, relative to the job file) or rows: (a list of mappings)")
            return nil
        }
        guard let table, let source else { return nil }
        return ImportStep(table: table, source: source)
    }
}
