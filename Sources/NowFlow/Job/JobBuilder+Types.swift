import NowData

/// Type errors `validate` can see before a run: a condition that cannot be true or false, `&&` on a number,
/// `len()` of a number, a comparison that cannot hold, a `foreach` over a text.
extension JobBuilder {
    /// The type `expression` gives, recording an error (at `node`) for each operation its operands' types refuse.
    func type(of expression: Expression, in node: YAMLNode) -> ExpressionType {
        switch expression {
        case .literal(let value):
            return ExpressionType(of: value)
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
                return .bool
            case .less, .lessOrEqual, .greater, .greaterOrEqual:
                for operand in [left, right] {
                    let operandType = type(of: operand, in: node)
                    if [.bool, .array, .object, .null].contains(operandType) {
                        typeError(
                            at: mark(of: operand, in: node),
                            "'\(op.rawValue)' cannot compare \(operandType.description); it compares numbers or texts")
                    }
                }
                return .bool
            }
        case .call(let function, let arguments, _):
            let types = arguments.map { type(of: $0, in: node) }
            switch function {
            case .len:
                if [.number, .bool, .null].contains(types[0]) {
                    typeError(
                        at: mark(of: arguments[0], in: node),
                        "len() needs a string, an array or an object, not \(types[0].description)")
                }
                return .number
            case .matches:
                if [.number, .bool, .array, .object].contains(types[0]) {
                    typeError(
                        at: mark(of: arguments[0], in: node),
                        "matches() needs a text first, not \(types[0].description)")
                }
                return .bool
            case .contains, .empty:
                return .bool
            }
        }
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

    private func typeError(at mark: YAMLMark, _ message: String) {
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
    private func mark(of expression: Expression, in node: YAMLNode) -> YAMLMark {
        if let reference = expression.references.first { return position(in: node, offset: reference.offset) }
        if let call = expression.calls.first { return position(in: node, offset: call.2) }
        return node.mark
    }
}
