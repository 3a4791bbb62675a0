import NowData

/// The steps that work on values: extract, set, assert, foreach; and turning values into texts and fields.
extension JobExecution {
    func perform(_ step: ExtractStep, scope: Scope) throws(StepFailure) -> (StepResult, String) {
        let from = try keptValue(step.from, "extract.from", scope: scope)
        let value: ExpressionValue
        do {
            value = try from.value(at: step.path)
        } catch {
            throw StepFailure("extract: \(step.fromSource): \(error)")
        }
        return (.extracted(value), "= \(value.json.brief)")
    }

    func perform(_ assignments: [NamedTemplate], scope: inout Scope) throws(StepFailure) -> (StepResult, String) {
        var values = JSONObject()
        for assignment in assignments {
            do {
                let value = try assignment.value.keptValue(in: scope)
                scope.variables[assignment.name] = value
                values[assignment.name] = value.json
            } catch {
                throw StepFailure("set \(assignment.name): \(error.message)")
            }
        }
        return (.value(.object(values)), assignments.map { "vars.\($0.name)" }.joined(separator: ", "))
    }

    func perform(_ step: AssertStep, scope: Scope) throws(StepFailure) -> (StepResult, String) {
        let holds: Bool
        do {
            holds = try step.that.evaluateCondition(in: scope)
        } catch {
            throw StepFailure("assert \(step.source): \(error.message)")
        }
        guard holds else {
            var message: String
            if let template = step.message {
                message = (try? template.message(in: scope)) ?? template.source
            } else {
                message = "assertion failed: \(step.source)"
            }
            if case .binary(let op, let left, let right) = step.that, op != .and, op != .or, op != .coalesce {
                let leftValue = (try? left.evaluate(in: scope)).map(\.brief) ?? "?"
                let rightValue = (try? right.evaluate(in: scope)).map(\.brief) ?? "?"
                message += " (\(leftValue) \(op.rawValue) \(rightValue) is false)"
            }
            throw StepFailure(message, isAssertion: true)
        }
        return (.value(.object(["passed": true])), "holds: \(step.source)")
    }

    func perform(_ step: ForeachStep, number: String, label: String, scope: inout Scope) async throws(StepFailure)
        -> (StepResult, String)
    {
        // Under --shard, ForeachItems hands out this shard's records only (and every other item). The body's own
        // foreach steps then run all of their items, as the item is this shard's.
        let shard = foreachShard
        var items = try foreachItems(step, shard: shard, scope: scope)
        defer { items.finish() }
        foreachShard = nil
        defer { foreachShard = shard }
        let parallel = try count(step.parallel, scope: scope)
        guard parallel <= ForeachStep.maximumParallel else {
            let source = if case .template(let template, _, _) = step.parallel { template.source } else { "\(parallel)" }
            throw StepFailure("parallel: \(source) gives \(parallel); it must be at most \(ForeachStep.maximumParallel)")
        }
        let results: [[StepResult.Named]?]
        // The items past the listed ones that are counted, not listed: the run's counts, even when the foreach fails.
        var counted = UnlistedOutcomes()
        defer { unlisted.add(counted) }
        // A dry run takes its writes not sent step by step, to list each under its step: one item at a time.
        if parallel > 1, dryRun == nil {
            results = try await runParallel(
                step, parallel: parallel, items: &items, number: number, label: label, scope: &scope, counted: &counted)
        } else {
            results = try await runSequential(
                step, items: &items, number: number, label: label, scope: &scope, counted: &counted)
        }
        let count = items.taken
        var summary = shard.map { "\(count) of \(items.offered) items (shard \($0))" }
            ?? "\(count) item\(count == 1 ? "" : "s")"
        if parallel > 1 { summary += ", \(parallel) at a time" }
        if !counted.isEmpty { summary += "; \(counted.summary)" }
        return (.foreach(results, count: step.keepsResults ? results.count : count), summary)
    }

    /// Adds what item `index` of `step` did to the run's reports: its steps' outcomes, the records it touched and
    /// their numbers. Past the listed items of a foreach that does not keep its results, an item whose steps all
    /// passed or were skipped is counted in `counted` instead.
    func report(
        item index: Int, of step: ForeachStep, outcomes itemOutcomes: [StepOutcome], touched itemTouched: [TouchedRecord],
        numbers itemNumbers: [String: String], counted: inout UnlistedOutcomes
    ) {
        if !step.keepsResults, index >= ForeachStep.listedItems, UnlistedOutcomes.countable(itemOutcomes) {
            counted.count(itemOutcomes, itemTouched)
            return
        }
        outcomes += itemOutcomes
        touched += itemTouched
        numbers.merge(itemNumbers) { _, new in new }
    }

    /// The items of `step`: the records of the query streamed to it when its items are `steps.<id>.records` of
    /// such a query (``QueryStep/Delivery/foreach``), else the array its expression gives; under `shard`, only
    /// the shard's.
    private func foreachItems(_ step: ForeachStep, shard: Shard?, scope: Scope) throws(StepFailure) -> ForeachItems {
        if case .reference(let reference) = step.items, reference.root == "steps",
            Array(reference.names.dropFirst()) == ["records"], let id = reference.names.first,
            case .streamed = scope.steps[id]
        {
            guard let open = openStreams.removeValue(forKey: id) else {
                // A foreach run again (its retry) after it read the stream.
                throw StepFailure(
                    "foreach: the records of steps.\(id) were streamed to this foreach once and not kept; give the query collect: true to go over them again")
            }
            return ForeachItems(open, shard: shard)
        }
        switch try keptValue(step.items, "foreach", scope: scope) {
        case .records(let records): return ForeachItems(records.map(ExpressionValue.record), shard: shard)
        case .json(.array(let values)): return ForeachItems(values.map(ExpressionValue.json), shard: shard)
        case let value: throw StepFailure("foreach: \(step.itemsSource) gives \(value.kindDescription), not an array")
        }
    }

    private func runSequential(
        _ step: ForeachStep, items: inout ForeachItems, number: String, label: String, scope: inout Scope,
        counted: inout UnlistedOutcomes
    ) async throws(StepFailure) -> [[StepResult.Named]?] {
        let ids = step.steps.compactMap(\.id)
        var results: [[StepResult.Named]?] = []
        var index = 0
        while let item = try await items.next() {
            var inner = scope
            inner.locals[step.name] = item
            // The item's outcomes, records touched and numbers are gathered apart, then listed or counted.
            var (itemOutcomes, itemTouched, itemNumbers) = ([StepOutcome](), [TouchedRecord](), [String: String]())
            swap(&outcomes, &itemOutcomes)
            swap(&touched, &itemTouched)
            swap(&numbers, &itemNumbers)
            let failure = await runList(step.steps, prefix: "\(number)[\(index)].", scope: &inner)
            if failure != nil, interruptionReason == nil { listNotRun(step.steps, prefix: "\(number)[\(index)].") }
            swap(&outcomes, &itemOutcomes)
            swap(&touched, &itemTouched)
            swap(&numbers, &itemNumbers)
            report(
                item: index, of: step, outcomes: itemOutcomes, touched: itemTouched, numbers: itemNumbers,
                counted: &counted)
            scope.variables = inner.variables
            if step.keepsResults || index < ForeachStep.listedItems { results.append(inner.results(of: ids)) }
            options.onEvent(.iterating(label: label, done: index + 1, total: items.total))
            if let failure { throw StepFailure(item: index, failed: failure) }
            index += 1
        }
        return results
    }

    // MARK: - Values

    /// The expression's value as a step keeps it (``ExpressionValue/kept``): a record or records keep their type.
    func keptValue(_ expression: Expression, _ what: String, scope: Scope) throws(StepFailure) -> ExpressionValue {
        do {
            return try expression.value(in: scope).kept
        } catch {
            throw StepFailure("\(what): \(error.message)")
        }
    }

    /// A template that must give a text (a table, a sys_id).
    /// The whole number of a `limit`, `max` or `page_size`: as written, or what its `${expr}` gives.
    func count(_ setting: CountSetting, scope: Scope) throws(StepFailure) -> Int {
        switch setting {
        case .fixed(let number):
            return number
        case .template(let template, let name, let minimum):
            let value: JSONValue
            do {
                value = try template.evaluate(in: scope)
            } catch {
                throw StepFailure("\(name): \(error.message)")
            }
            guard case .number(let number) = value, let whole = Int(number.text) else {
                throw StepFailure("\(name): \(template.source) gives \(value.kindDescription), not a whole number")
            }
            guard whole >= minimum else {
                throw StepFailure("\(name): \(template.source) gives \(whole); it must be at least \(minimum)")
            }
            return whole
        }
    }

    func text(_ template: Template, _ what: String, scope: Scope) throws(StepFailure) -> String {
        let value: JSONValue
        do {
            value = try template.evaluate(in: scope)
        } catch {
            throw StepFailure("\(what): \(error.message)")
        }
        switch value {
        case .array, .object, .null:
            throw StepFailure("\(what): \(template.source) gives \(value.kindDescription), not a text")
        default:
            let text = value.text
            guard !text.isEmpty else {
                throw StepFailure(template.source.isEmpty ? "\(what) is empty" : "\(what): \(template.source) is empty")
            }
            return text
        }
    }

    /// The fields of a create or update as NowData values: a number as the text it was written or read with
    /// (`2800`, `0.10`), a date in the job's format as a date (sent in ServiceNow's), a record given for a
    /// reference field as its sys_id, an array as comma-separated values.
    func fieldValues(_ fields: [NamedTemplate], scope: Scope) throws(StepFailure) -> [FieldName: FieldValue] {
        var result: [FieldName: FieldValue] = [:]
        for field in fields {
            let value: JSONValue
            do {
                value = try field.value.evaluate(in: scope)
            } catch {
                throw StepFailure("fields.\(field.name): \(error.message)")
            }
            switch value {
            case .null: result[field.name] = .null
            case .bool(let flag): result[field.name] = .bool(flag)
            case .number(let number): result[field.name] = .string(number.text)
            case .string(let text): result[field.name] = dates.outgoing(text).map(FieldValue.date) ?? .string(text)
            case .array(let items): result[field.name] = .string(items.map(\.text).joined(separator: ","))
            case .object:
                let sysID = NowRecord.sysID(of: value)
                guard !sysID.isEmpty else {
                    throw StepFailure("fields.\(field.name): a record without a sys_id cannot be written to a field")
                }
                result[field.name] = .string(sysID)
            }
        }
        return result
    }
}
