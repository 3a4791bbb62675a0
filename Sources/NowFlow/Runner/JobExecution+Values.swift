import NowData

/// The steps that work on values: extract, set, assert, foreach; and turning values into texts and fields.
extension JobExecution {
    func perform(_ step: ExtractStep, scope: Scope) throws(StepFailure) -> (Value, String) {
        var value = try evaluate(step.from, "extract.from", scope: scope)
        var walked = step.fromSource
        for part in step.path {
            do {
                value = try value.member(part, of: walked)
            } catch {
                throw StepFailure("extract: \(error.message)")
            }
            walked += "." + part
        }
        return (value, "= \(Self.brief(value))")
    }

    func perform(_ assignments: [NamedTemplate], scope: inout Scope) throws(StepFailure) -> (Value, String) {
        var values: [String: Value] = [:]
        for assignment in assignments {
            do {
                let value = try assignment.value.evaluate(in: scope)
                scope.vars[assignment.name] = value
                values[assignment.name] = value
            } catch {
                throw StepFailure("set \(assignment.name): \(error.message)")
            }
        }
        return (.map(values), assignments.map { "vars.\($0.name)" }.joined(separator: ", "))
    }

    func perform(_ step: AssertStep, scope: Scope) throws(StepFailure) -> (Value, String) {
        let holds: Bool
        do {
            holds = try step.that.evaluateCondition(in: scope)
        } catch {
            throw StepFailure("assert \(step.source): \(error.message)")
        }
        guard holds else {
            var message: String
            if let template = step.message {
                message = (try? template.evaluate(in: scope).text) ?? template.source
            } else {
                message = "assertion failed: \(step.source)"
            }
            if case .binary(let op, let left, let right) = step.that, op != .and, op != .or, op != .coalesce {
                let leftValue = (try? left.evaluate(in: scope)).map(Self.brief) ?? "?"
                let rightValue = (try? right.evaluate(in: scope)).map(Self.brief) ?? "?"
                message += " (\(leftValue) \(op.rawValue) \(rightValue) is false)"
            }
            throw StepFailure(message, isAssertion: true)
        }
        return (.map(["passed": .bool(true)]), "holds: \(step.source)")
    }

    func perform(_ step: ForeachStep, number: String, scope: inout Scope) async throws(StepFailure) -> (Value, String) {
        let value = try evaluate(step.items, "foreach", scope: scope)
        guard case .list(let items) = value else {
            throw StepFailure("foreach: \(step.itemsSource) gives \(value.kindDescription), not a list")
        }
        let ids = Set(step.steps.compactMap(\.id))
        var results: [Value] = []
        for (index, item) in items.enumerated() {
            var inner = scope
            inner.locals[step.name] = item
            let failure = await runList(step.steps, prefix: "\(number)[\(index)].", scope: &inner)
            scope.vars = inner.vars
            results.append(.map(inner.steps.filter { ids.contains($0.key) }))
            if let failure {
                throw StepFailure(
                    "item \(index) failed: \(failure.message)", isAssertion: failure.isAssertion,
                    fromInstance: failure.fromInstance)
            }
        }
        return (
            .map(["results": .list(results), "count": .int(items.count)]),
            "\(items.count) item\(items.count == 1 ? "" : "s")"
        )
    }

    // MARK: - Values

    func evaluate(_ expression: Expression, _ what: String, scope: Scope) throws(StepFailure) -> Value {
        do {
            return try expression.evaluate(in: scope)
        } catch {
            throw StepFailure("\(what): \(error.message)")
        }
    }

    /// A template that must give a text (a table, a sys_id).
    func text(_ template: Template, _ what: String, scope: Scope) throws(StepFailure) -> String {
        let value: Value
        do {
            value = try template.evaluate(in: scope)
        } catch {
            throw StepFailure("\(what): \(error.message)")
        }
        switch value {
        case .list, .map, .null:
            throw StepFailure("\(what): \(template.source) gives \(value.kindDescription), not a text")
        default:
            let text = value.text
            guard !text.isEmpty else { throw StepFailure("\(what): \(template.source) is empty") }
            return text
        }
    }

    /// The fields of a create or update as NowData values: a record given for a reference field is written as
    /// its sys_id, a list as comma-separated values.
    func fieldValues(_ fields: [NamedTemplate], scope: Scope) throws(StepFailure) -> [FieldName: FieldValue] {
        var result: [FieldName: FieldValue] = [:]
        for field in fields {
            let value: Value
            do {
                value = try field.value.evaluate(in: scope)
            } catch {
                throw StepFailure("fields.\(field.name): \(error.message)")
            }
            switch value {
            case .null: result[field.name] = .null
            case .bool(let flag): result[field.name] = .bool(flag)
            case .int(let number): result[field.name] = .int(number)
            case .double(let number): result[field.name] = .double(number)
            case .string(let text): result[field.name] = dates?.outgoing(text).map(FieldValue.date) ?? .string(text)
            case .list(let items): result[field.name] = .string(items.map(\.text).joined(separator: ","))
            case .map:
                let sysID = Self.sysID(of: value)
                guard !sysID.isEmpty else {
                    throw StepFailure("fields.\(field.name): a record without a sys_id cannot be written to a field")
                }
                result[field.name] = .string(sysID)
            }
        }
        return result
    }

    /// A value in a few words, for summaries and assertion messages.
    static func brief(_ value: Value) -> String {
        let text: String
        switch value {
        case .string(let string): text = "'\(string)'"
        case .null: text = "null"
        default: text = value.text
        }
        return text.count > 60 ? String(text.prefix(57)) + "..." : text
    }
}
