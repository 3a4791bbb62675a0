import NowData

/// Reading steps: the common options, then the parameters of each kind.
extension JobBuilder {
    /// The steps of a `steps`/`finally` list, in order; each step's id becomes visible to the steps after it.
    func steps(_ node: YAMLNode, _ what: String) -> [Step] {
        guard let items = node.items else {
            error(at: node.mark, "\(what) must be a list of steps, not \(node.kindDescription)")
            return []
        }
        var steps: [Step] = []
        steps.reserveCapacity(items.count)
        for item in items {
            if let step = step(item) { steps.append(step) }
        }
        return steps
    }

    private func step(_ node: YAMLNode) -> Step? {
        guard let pairs = node.pairs else {
            error(
                at: node.mark,
                "a step is a mapping with one kind (\(StepKind.names.alternatives)), not \(node.kindDescription)")
            return nil
        }
        let kindPairs = pairs.filter { StepKind.names.contains($0.name) }
        let kindName = kindPairs.first?.name
        let allowed = JobSchema.stepKeys(kind: kindName)
        for pair in pairs where !allowed.contains(pair.name) {
            if kindPairs.isEmpty, let suggestion = pair.name.closest(among: StepKind.names) {
                error(at: pair.key.mark, "unknown step kind '\(pair.name)'; did you mean '\(suggestion)'?")
            } else if kindPairs.isEmpty, pair.name.closest(among: JobSchema.step.names) == nil {
                error(at: pair.key.mark, "unknown step kind '\(pair.name)'; the kinds are \(StepKind.names.alternatives)")
            } else {
                error(
                    at: pair.key.mark,
                    unknownKeyMessage(pair.name, allowed: allowed, in: kindName.map { "the \($0) step" } ?? "the step"))
            }
        }
        if kindPairs.count > 1 {
            error(
                at: kindPairs[1].key.mark,
                "a step has one kind; this one has \(kindPairs.map(\.name).alternatives.replacingOccurrences(of: " or ", with: " and "))"
            )
            return nil
        }
        guard let kindPair = kindPairs.first else {
            if pairs.allSatisfy({ allowed.contains($0.name) }) {
                error(at: node.mark, "a step needs a kind: one of \(StepKind.names.alternatives)")
            }
            return nil
        }

        var id: String?
        if let idNode = value(pairs, "id"), checkName(idNode, "the step id") {
            id = idNode.scalarText
        }
        let when = value(pairs, "when").flatMap { condition($0, "when") }?.0
        let continueOnError = value(pairs, "continue_on_error").flatMap { boolean($0, "continue_on_error") } ?? false
        let onceNode = value(pairs, "once")
        let once = onceNode.flatMap { boolean($0, "once") } ?? false
        if once, !localNames.isEmpty, let onceNode {
            error(
                at: onceNode.mark,
                "once: a step of a foreach's steps runs for the items of each shard; put the step outside the foreach")
        }
        currentIDs.append(id ?? "")
        let kind = stepKind(kindPair, in: pairs)
        currentIDs.removeLast()
        if let id, let kind { visibleIDs[id] = kind }
        let retry = value(pairs, "retry").flatMap { retryOptions($0) }
        let show = value(pairs, "show").flatMap(showSetting) ?? .rows(ShowSetting.defaultRows)
        let tags = value(pairs, "tags").flatMap(stepTags) ?? []
        guard let kind else { return nil }
        return Step(
            id: id, kind: kind, when: when, retry: retry, continueOnError: continueOnError, tags: tags, once: once,
            show: show, line: node.mark.line, column: node.mark.column)
    }

    /// `tags: [a, b]` or `tags: a, b`: names of letters, digits, `_` and `-`.
    private func stepTags(_ node: YAMLNode) -> [String]? {
        guard let tags = names(node, "tags") else { return nil }
        for tag in tags where !Step.isTag(tag) {
            error(at: node.mark, "tags: '\(tag)' is not a tag (letters, digits, '_' and '-')")
            return nil
        }
        return tags
    }

    /// `show: all`, `show: false`, or a number of records.
    private func showSetting(_ node: YAMLNode) -> ShowSetting? {
        switch node.resolvedScalar {
        case .string("all"): return .all
        case .bool(false): return ShowSetting.none
        case let scalar? where scalar.wholeNumber.map { $0 >= 0 } == true:
            return scalar.wholeNumber.map { $0 == 0 ? ShowSetting.none : .rows($0) }
        default:
            error(at: node.mark, "show must be all, false or a number of records, not \(node.kindDescription)")
            return nil
        }
    }

    private func retryOptions(_ node: YAMLNode) -> StepRetry? {
        guard let pairs = mapping(node, "retry") else { return nil }
        checkKeys(pairs, of: JobSchema.retry)
        let attempts = value(pairs, "attempts").flatMap { integer($0, "retry.attempts", minimum: 1) } ?? 3
        let delay = value(pairs, "delay").flatMap { duration($0, "retry.delay") } ?? .seconds(1)
        let until = value(pairs, "until").flatMap { condition($0, "retry.until") }?.0
        return StepRetry(attempts: attempts, delay: delay, until: until)
    }

    private func stepKind(_ pair: YAMLNode.Pair, in stepPairs: [YAMLNode.Pair]) -> StepKind? {
        let node = pair.value
        switch pair.name {
        case "extract": return extract(node).map(StepKind.extract)
        case "set": return assignments(node).map(StepKind.set)
        case "assert": return assertion(node).map(StepKind.assert)
        case "foreach": return foreach(node, in: stepPairs).map(StepKind.foreach)
        case "ensure": return ensure(node).map(StepKind.ensure)
        case "http": return http(node).map(StepKind.http)
        case "include": return include(node).map(StepKind.include)
        case "change": return change(node).map(StepKind.change)
        case "import": return importRows(node).map(StepKind.importRows)
        case "order": return order(node).map(StepKind.order)
        case _ where JobSchema.kind(pair.name)?.group == .attachments: return attachmentStepKind(pair)
        default: break
        }
        guard let pairs = mapping(node, pair.name) else { return nil }
        let table = requiredTemplate(pairs, "table", in: pair.name, at: node.mark)
        if let tableNode = value(pairs, "table"), let name = table?.literal, !NameUse.isTableName(name) {
            error(at: tableNode.mark, "'\(name)' is not a table name (lowercase letters, digits and '_')")
        }
        if let parameters = JobSchema.kind(pair.name)?.parameters { checkKeys(pairs, of: parameters) }
        switch pair.name {
        case "query":
            let filter = filter(pairs, in: "query")
            let fields = value(pairs, "fields").flatMap { names($0, "fields") } ?? []
            let limit = value(pairs, "limit").flatMap { count($0, "limit", minimum: 1) }
            let pageSize = value(pairs, "page_size").flatMap { count($0, "page_size", minimum: 1) }
            let orderBy = value(pairs, "order_by").flatMap { templateText($0, "order_by") }
            let orderByDescending = value(pairs, "order_by_desc").flatMap { templateText($0, "order_by_desc") }
            let read = readSettings(pairs)
            guard let table else { return nil }
            var step = QueryStep(
                table: table, filter: filter, fields: fields, limit: limit, pageSize: pageSize, orderBy: orderBy,
                orderByDescending: orderByDescending, read: read)
            step.collect = value(pairs, "collect").flatMap { boolean($0, "query.collect") } ?? false
            if let pagingNode = value(pairs, "paging"), let given = text(pagingNode, "query.paging") {
                if let paging = QueryStep.Paging(rawValue: given) {
                    step.paging = paging
                } else {
                    error(at: pagingNode.mark, "query.paging must be keyed or offset, not '\(given)'")
                }
            }
            step.to = value(pairs, "to").flatMap { templateText($0, "query.to") }
            step.overwrite = value(pairs, "overwrite").flatMap { boolean($0, "query.overwrite") } ?? false
            return .query(step)
        case "get":
            let sysID = requiredTemplate(pairs, "sys_id", in: "get", at: node.mark)
            let fields = value(pairs, "fields").flatMap { names($0, "fields") } ?? []
            let read = readSettings(pairs)
            guard let table, let sysID else { return nil }
            return .get(GetStep(table: table, sysID: sysID, fields: fields, read: read))
        case "create":
            let fields = recordFields(pairs, in: "create", at: node.mark)
            let settings = writeSettings(pairs)
            guard let table, let fields else { return nil }
            return .create(CreateStep(table: table, fields: fields, settings: settings))
        case "update":
            let target = target(pairs, in: "update", at: node.mark)
            let fields = recordFields(pairs, in: "update", at: node.mark)
            let settings = writeSettings(pairs)
            guard let table, let target, let fields else { return nil }
            return .update(UpdateStep(table: table, target: target, fields: fields, settings: settings))
        default:
            let target = target(pairs, in: "delete", at: node.mark)
            guard let table, let target else { return nil }
            return .delete(DeleteStep(table: table, target: target))
        }
    }

    /// `display_value:` and `exclude_reference_link:`, for every step that gets records back.
    private func readSettings(_ pairs: [YAMLNode.Pair]) -> ReadSettings {
        var settings = ReadSettings()
        settings.displayValue = value(pairs, "display_value").flatMap(displayValue) ?? .actual
        settings.excludeReferenceLink =
            value(pairs, "exclude_reference_link").flatMap { boolean($0, "exclude_reference_link") } ?? false
        return settings
    }

    func writeSettings(_ pairs: [YAMLNode.Pair]) -> WriteSettings {
        var settings = WriteSettings()
        settings.read = readSettings(pairs)
        settings.inputDisplayValue =
            value(pairs, "input_display_value").flatMap { boolean($0, "input_display_value") } ?? false
        settings.suppressAutoSysField =
            value(pairs, "suppress_auto_sys_field").flatMap { boolean($0, "suppress_auto_sys_field") } ?? false
        return settings
    }

    /// `query:` or `where:` (not both); nil when neither is given.
    func filter(_ pairs: [YAMLNode.Pair], in context: String) -> RecordFilter? {
        let queryNode = value(pairs, "query")
        let whereNode = value(pairs, "where")
        if queryNode != nil, let whereNode {
            error(at: whereNode.mark, "\(context) takes query: or where:, not both")
            return nil
        }
        if let queryNode { return encodedQuery(queryNode) }
        guard let whereNode else { return nil }
        return whereClause(whereNode, "where").map(RecordFilter.matching)
    }

    /// An encoded `query:`; a literal one's `IN` over an empty list (`sys_idIN`), which selects no record, is a
    /// warning.
    func encodedQuery(_ node: YAMLNode) -> RecordFilter? {
        guard let template = templateText(node, "query") else { return nil }
        if let text = node.scalarText, !Template.marks(text), let query = try? EncodedQuery.parse(text) {
            for group in query.groups {
                for clause in group.clauses {
                    for case .condition(let condition) in clause.terms
                    where condition.op == .isIn && condition.value.isEmpty {
                        warn(at: node.mark, "'\(condition.text)' compares with an empty list: the condition selects no record")
                    }
                }
            }
        }
        return .query(template)
    }

    /// Warns of a condition of `field` by `op` (`=`, `IN`, `!=`, `NOT IN`) whose value written in the file is an
    /// empty list: it selects no record (or, for `NOT IN`, excludes none and is left out).
    func warnOfEmptyList(_ node: YAMLNode, field: String, op: QueryOperator) {
        guard node.items?.isEmpty == true else { return }
        if op == .notIn || op == .notEquals {
            warn(at: node.mark, "\(field) is compared with an empty list by not_in: the condition excludes no record and is left out")
        } else {
            warn(at: node.mark, "\(field) is compared with an empty list: the condition selects no record")
        }
    }

    /// The conditions of a `where:`: `field: value` pairs, `field: { operator: value }` mappings (several
    /// operators on one field are all applied) and `or:`, a list of such mappings of which a record matches one.
    func whereClause(_ node: YAMLNode, _ key: String) -> WhereClause? {
        guard let pairs = mapping(node, key) else { return nil }
        var clause = WhereClause(conditions: [])
        var valid = true
        for pair in pairs {
            if pair.hasName("or") {
                guard let items = pair.value.items, !items.isEmpty else {
                    error(at: pair.value.mark, "\(key): or: must be a list of mappings of conditions, one of which a record matches")
                    valid = false
                    continue
                }
                for item in items {
                    if let alternative = whereClause(item, "\(key): or: item") {
                        clause.alternatives.append(alternative)
                    } else {
                        valid = false
                    }
                }
                continue
            }
            guard checkFieldName(pair) else {
                valid = false
                continue
            }
            guard let operators = pair.value.pairs else {
                warnOfEmptyList(pair.value, field: pair.name, op: .equals)
                guard let value = templateValue(pair.value) else {
                    valid = false
                    continue
                }
                clause.conditions.append(WhereCondition(field: pair.name, op: .equals, value: value, mark: pair.value.mark))
                continue
            }
            if operators.isEmpty {
                error(at: pair.value.mark, "\(key): \(pair.name) needs a value, or an operator and a value ({\">=\": 2})")
                valid = false
            }
            for member in operators {
                if let condition = whereCondition(pair.name, member, in: key) {
                    clause.conditions.append(condition)
                } else {
                    valid = false
                }
            }
        }
        return valid ? clause : nil
    }

    /// `operator: value` of `field: { operator: value }`; nil, with a diagnostic, when either is wrong.
    private func whereCondition(_ field: String, _ member: YAMLNode.Pair, in key: String) -> WhereCondition? {
        let what = "\(key): \(field): \(member.name)"
        guard let op = WhereCondition.operators.first(where: { member.hasName($0.key) })?.op else {
            let keys = WhereCondition.operators.map(\.key)
            let hint = member.name.closest(among: keys).map { "; did you mean '\($0)'?" } ?? ""
            error(
                at: member.key.mark,
                "\(key): \(field): unknown operator '\(member.name)' (\(keys.joined(separator: ", ")))\(hint)")
            return nil
        }
        if op == .isEmpty {
            guard let flag = boolean(member.value, what) else { return nil }
            return WhereCondition(field: field, op: flag ? .isEmpty : .isNotEmpty, value: nil, mark: member.key.mark)
        }
        let node = member.value
        let isTemplate = node.scalarText.map(Template.marks) ?? false
        switch op {
        case .isIn, .notIn:
            guard node.items != nil || isTemplate else {
                error(at: node.mark, "\(what) takes a list of values ([1, 2]), not \(node.kindDescription)")
                return nil
            }
            warnOfEmptyList(node, field: field, op: op)
        case .between:
            guard node.items?.count == 2 || isTemplate else {
                error(at: node.mark, "\(what) takes a list of two values, the lowest and the highest ([1, 3])")
                return nil
            }
        default:
            guard node.scalarText != nil else {
                error(at: node.mark, "\(what) takes one value, not \(node.kindDescription)")
                return nil
            }
        }
        return templateValue(node).map { WhereCondition(field: field, op: op, value: $0, mark: node.mark) }
    }

    /// The `field: value` pairs of an ensure's `match:`, equalities only; nil when it is not a mapping.
    func equalities(_ node: YAMLNode, _ key: String) -> [WhereCondition]? {
        guard let conditions = mapping(node, key) else { return nil }
        var result: [WhereCondition] = []
        for condition in conditions where checkFieldName(condition) {
            if condition.value.pairs != nil {
                error(
                    at: condition.value.mark,
                    "\(key): \(condition.name) must be a value or a list of values, not a mapping")
                continue
            }
            warnOfEmptyList(condition.value, field: condition.name, op: .equals)
            if let value = templateValue(condition.value) {
                result.append(WhereCondition(field: condition.name, op: .equals, value: value, mark: condition.value.mark))
            }
        }
        return result
    }

    /// `sys_id:`, or `where:`/`query:` with `max:`.
    private func target(_ pairs: [YAMLNode.Pair], in context: String, at mark: YAMLMark) -> RecordTarget? {
        let sysIDNode = value(pairs, "sys_id")
        let maxNode = value(pairs, "max")
        let hasFilter = value(pairs, "where") != nil || value(pairs, "query") != nil
        if let sysIDNode {
            if hasFilter {
                error(at: sysIDNode.mark, "\(context) takes sys_id: or a where:/query:, not both")
                return nil
            }
            if let maxNode {
                error(at: maxNode.mark, "max: applies only with where: or query:; by sys_id, one record is \(context)d")
            }
            return templateText(sysIDNode, "sys_id").map(RecordTarget.sysID)
        }
        guard hasFilter else {
            error(at: mark, "\(context) needs sys_id:, or where: or query: with max:")
            return nil
        }
        let filter = filter(pairs, in: context)
        guard let maxNode else {
            let verb = context == "delete" ? "delete" : "change"
            error(
                at: mark,
                "\(context == "update" ? "an" : "a") \(context) by where:/query: needs max:, the most records it may \(verb); when more match, nothing is \(context)d"
            )
            return nil
        }
        guard let max = count(maxNode, "max", minimum: 1), let filter else { return nil }
        return .filter(filter, max: max)
    }

    /// The `fields:` mapping of a create or update.
    func recordFields(_ pairs: [YAMLNode.Pair], in context: String, at mark: YAMLMark) -> [NamedTemplate]? {
        guard let node = value(pairs, "fields") else {
            error(at: mark, "\(context) needs fields: (a mapping of field names to values)")
            return nil
        }
        guard let fields = mapping(node, "fields") else { return nil }
        var result: [NamedTemplate] = []
        for field in fields where checkFieldName(field) {
            if let value = templateValue(field.value) { result.append(NamedTemplate(name: field.name, value: value)) }
        }
        return result.count == fields.count ? result : nil
    }

    /// Whether the key of a `where:` or `fields:` pair is a field name; a diagnostic otherwise.
    private func checkFieldName(_ pair: YAMLNode.Pair) -> Bool {
        guard NameUse.isFieldName(pair.name) else {
            error(at: pair.key.mark, "'\(pair.name)' is not a field name (letters, digits, '_' and '.')")
            return false
        }
        return true
    }

    private func extract(_ node: YAMLNode) -> ExtractStep? {
        guard let pairs = mapping(node, "extract") else { return nil }
        checkKeys(pairs, of: JobSchema.extractParameters)
        guard let fromNode = value(pairs, "from") else {
            error(at: node.mark, "extract needs from: (an expression)")
            return nil
        }
        let from = condition(fromNode, "extract.from")
        guard let pathNode = value(pairs, "path") else {
            error(at: node.mark, "extract needs path: (a dot path such as records.0.sys_id)")
            return nil
        }
        guard let pathText = text(pathNode, "extract.path") else { return nil }
        let path: DotPath
        do {
            path = try DotPath(pathText)
        } catch {
            self.error(at: pathNode.mark, "extract.path: \(error); write names between dots, as in records.0.sys_id")
            return nil
        }
        guard let (expression, source) = from else { return nil }
        return ExtractStep(from: expression, fromSource: source, path: path)
    }

    private func assignments(_ node: YAMLNode) -> [NamedTemplate]? {
        guard let pairs = mapping(node, "set") else { return nil }
        var result: [NamedTemplate] = []
        result.reserveCapacity(pairs.count)
        for index in pairs.indices where checkName(pairs[index].key, "a variable name") {
            if let value = templateValue(pairs[index].value) {
                result.append(NamedTemplate(name: pairs[index].name, value: value))
            }
        }
        return result.count == pairs.count ? result : nil
    }

    private func assertion(_ node: YAMLNode) -> AssertStep? {
        guard let pairs = node.pairs else {
            return condition(node, "assert").map { AssertStep(that: $0.0, source: $0.1, message: nil) }
        }
        checkKeys(pairs, of: JobSchema.assertParameters)
        guard let thatNode = value(pairs, "that") else {
            error(at: node.mark, "assert needs that: (the condition)")
            return nil
        }
        let message = value(pairs, "message").flatMap { templateText($0, "assert.message") }
        return condition(thatNode, "assert.that").map { AssertStep(that: $0.0, source: $0.1, message: message) }
    }

    private func foreach(_ node: YAMLNode, in stepPairs: [YAMLNode.Pair]) -> ForeachStep? {
        readingForeachItems = true
        let items = condition(node, "foreach")
        readingForeachItems = false
        var name = "item"
        if let nameNode = value(stepPairs, "as"), checkName(nameNode, "foreach's as:") {
            let given = nameNode.scalarText ?? name
            if ["vars", "env", "steps", "true", "false", "null", "in"].contains(given) {
                error(at: nameNode.mark, "foreach's as: '\(given)' is a reserved name; choose another")
            } else {
                name = given
            }
        }
        var parallel = CountSetting.fixed(1)
        if let parallelNode = value(stepPairs, "parallel"), let given = count(parallelNode, "parallel", minimum: 1) {
            if case .fixed(let number) = given, number > ForeachStep.maximumParallel {
                error(at: parallelNode.mark, "parallel must be at most \(ForeachStep.maximumParallel), not \(number)")
            } else {
                parallel = given
            }
        }
        guard let stepsNode = value(stepPairs, "steps") else {
            error(at: node.mark, "foreach needs steps: (the steps to run for each item)")
            return nil
        }
        let outerIDs = visibleIDs
        localNames.append(name)
        let body = steps(stepsNode, "foreach steps")
        localNames.removeLast()
        visibleIDs = outerIDs
        guard let (expression, source) = items else { return nil }
        return ForeachStep(items: expression, itemsSource: source, name: name, steps: body, parallel: parallel)
    }
}
