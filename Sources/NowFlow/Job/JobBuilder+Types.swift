import NowData

/// Type errors `validate` can see before a run: a condition that cannot be true or false, `&&` on a number,
/// `len()` of a number, a comparison that cannot hold, a `foreach` over a text.
extension JobBuilder {
    /// The type `expression` gives, recording an error (at `node`) for each operation its operands' types refuse.
    func type(of expression: Expression, in node: YAMLNode) -> ExpressionType {
        switch expression {
        case .literal(let value):
            return ExpressionType(of: value)
        case .list(let items):
            for item in items { _ = type(of: item, in: node) }
            return .array
        case .reference(let reference):
            return type(of: reference)
        case .not(let operand):
            requireBoolean(operand, "'!'", in: node)
            return .bool
        case .binary(let op, let left, let right):
            switch op {
            case .and, .or:
                requireBoolean(left, "'\(op.rawValue)'", in: node)
                requireBoolean(right, "'\(op.rawValue)'", in: node)
                return .bool
            case .coalesce:
                let (leftType, rightType) = (type(of: left, in: node), type(of: right, in: node))
                return leftType == rightType ? leftType : .unknown
            case .equal, .notEqual:
                let (leftType, rightType) = (type(of: left, in: node), type(of: right, in: node))
                for (text, other, textSide) in [(left, rightType, left), (right, leftType, right)] {
                    if case .literal(.string(let literal)) = text, other == .number,
                        JSONValue.string(literal).numeric == nil
                    {
                        typeError(
                            at: mark(of: textSide, in: node),
                            "'\(op.rawValue)' compares '\(literal)', which is not a number, with a number: it is always \(op == .equal ? "false" : "true")"
                        )
                    }
                }
                if let problem = mismatch(leftType, rightType, left, right) {
                    typeError(
                        at: mark(of: left, in: node),
                        "'\(op.rawValue)' compares \(problem): it is always \(op == .equal ? "false" : "true")")
                }
                return .bool
            case .less, .lessOrEqual, .greater, .greaterOrEqual:
                var types: [ExpressionType] = []
                for operand in [left, right] {
                    let operandType = type(of: operand, in: node)
                    types.append(operandType)
                    if [.bool, .array, .object, .null].contains(operandType) {
                        typeError(
                            at: mark(of: operand, in: node),
                            "'\(op.rawValue)' cannot compare \(operandType.description); it compares numbers, texts, dates or durations")
                    }
                }
                if let problem = mismatch(types[0], types[1], left, right) {
                    typeError(at: mark(of: left, in: node), "'\(op.rawValue)' cannot compare \(problem)")
                }
                return .bool
            case .in:
                _ = type(of: left, in: node)
                let container = type(of: right, in: node)
                if ![.string, .array, .object, .null, .unknown].contains(container) {
                    typeError(
                        at: mark(of: right, in: node),
                        "'in' looks in a string, an array or an object, not \(container.description)")
                }
                return .bool
            case .plus, .minus:
                return arithmeticType(op, left, right, in: node)
            }
        case .call(let function, let arguments, let offset):
            return callType(function, arguments, offset: offset, in: node)
        }
    }

    /// `a date with a number`, when two known types can never be ordered against each other.
    private func mismatch(
        _ left: ExpressionType, _ right: ExpressionType, _ leftExpression: Expression, _ rightExpression: Expression
    ) -> String? {
        let timed: Set<ExpressionType> = [.date, .duration]
        guard timed.contains(left) || timed.contains(right), left != right, left != .unknown, right != .unknown else {
            return nil
        }
        // A text may hold a date (a record's opened_at): only a literal that is not one is refused.
        for (type, other, expression) in [(left, right, leftExpression), (right, left, rightExpression)]
        where type == .string && other == .date {
            guard case .literal(.string(let text)) = expression, !readsDate(text) else {
                return nil
            }
            return "a date with '\(text)', which is not a date"
        }
        return "\(left.description) with \(right.description)"
    }

    /// Records an error when `expression`, used as a `when`, `assert` or `retry.until`, cannot give true or false,
    /// or when a `foreach` goes over a value that is not a list.
    func checkConditionType(_ expression: Expression, _ what: String, in node: YAMLNode) {
        // The operands were checked with the expression's references: only the whole is checked here.
        typeErrorsMuted = true
        let found = type(of: expression, in: node)
        typeErrorsMuted = false
        switch what {
        case "when", "assert", "assert.that", "retry.until":
            if ![.bool, .unknown].contains(found) {
                error(at: node.mark, "\(what): the condition gives \(found.description), not true or false")
            }
        case "foreach":
            if ![.array, .unknown, .null].contains(found) {
                error(at: node.mark, "foreach: goes over a list, not \(found.description)")
            }
        default:
            break
        }
    }

    func typeError(at mark: YAMLMark, _ message: String) {
        if !typeErrorsMuted { error(at: mark, message) }
    }

    private func requireBoolean(_ operand: Expression, _ op: String, in node: YAMLNode) {
        let found = type(of: operand, in: node)
        guard ![.bool, .unknown].contains(found) else { return }
        typeError(at: mark(of: operand, in: node), "\(op) needs true or false, not \(found.description)")
    }

    private func type(of reference: Reference) -> ExpressionType {
        let names = Array(reference.names)
        switch reference.root {
        case "vars":
            guard names.count == 1, let name = names.first else { return .unknown }
            return variableTypes[name] ?? .unknown
        case "steps":
            guard names.count == 2, let id = names.first, visibleIDs[id]?.resultFields != nil else { return .unknown }
            return ExpressionType.resultField(names[1])
        default:
            return .unknown
        }
    }

    /// Where an operand starts: its first reference or call, else the value's own position.
    func mark(of expression: Expression, in node: YAMLNode) -> YAMLMark {
        if let reference = expression.references.first { return position(in: node, offset: reference.offset) }
        if let call = expression.calls.first { return position(in: node, offset: call.2) }
        return node.mark
    }
}
