import Foundation
import NowData

/// Reading typed values out of nodes, each problem recorded at the node.
extension JobBuilder {
    /// The value of `key` in a mapping's pairs.
    func value(_ pairs: [YAMLNode.Pair], _ key: String) -> YAMLNode? {
        // By index, each key compared where it is: no pair is copied but the one found.
        for index in pairs.indices where pairs[index].hasName(key) { return pairs[index].value }
        return nil
    }

    /// Records every key the schema does not declare in `mapping`, with the closest declared key as a suggestion.
    func checkKeys(_ pairs: [YAMLNode.Pair], of mapping: SchemaMapping) {
        checkKeys(pairs, allowed: mapping.names, in: mapping.context)
    }

    /// Records every key that is not `allowed`, with the closest allowed key as a suggestion.
    func checkKeys(_ pairs: [YAMLNode.Pair], allowed: [String], in context: String) {
        for pair in pairs where !allowed.contains(pair.name) {
            error(at: pair.key.mark, unknownKeyMessage(pair.name, allowed: allowed, in: context))
        }
    }

    func unknownKeyMessage(_ name: String, allowed: [String], in context: String) -> String {
        if let suggestion = name.closest(among: allowed) {
            return "unknown key '\(name)' in \(context); did you mean '\(suggestion)'?"
        }
        return "unknown key '\(name)' in \(context); expected \(allowed.alternatives)"
    }

    func mapping(_ node: YAMLNode, _ what: String) -> [YAMLNode.Pair]? {
        guard let pairs = node.pairs else {
            error(at: node.mark, "\(what) must be a mapping, not \(node.kindDescription)")
            return nil
        }
        return pairs
    }

    func text(_ node: YAMLNode, _ what: String) -> String? {
        guard let text = node.scalarText, node.resolvedScalar != .null else {
            error(at: node.mark, "\(what) must be a text, not \(node.kindDescription)")
            return nil
        }
        return text
    }

    func requiredText(_ pairs: [YAMLNode.Pair], _ key: String, in context: String, at mark: YAMLMark) -> String? {
        guard let node = value(pairs, key) else {
            error(at: mark, "\(context) needs \(key):")
            return nil
        }
        return text(node, key)
    }

    /// A text that may hold `${ ... }`, with its references checked.
    func templateText(_ node: YAMLNode, _ what: String) -> Template? {
        guard let text = text(node, what) else { return nil }
        return template(text, at: node)
    }

    func requiredTemplate(_ pairs: [YAMLNode.Pair], _ key: String, in context: String, at mark: YAMLMark) -> Template? {
        guard let node = value(pairs, key) else {
            error(at: mark, "\(context) needs \(key):")
            return nil
        }
        return templateText(node, "\(context).\(key)")
    }

    func template(_ text: String, at node: YAMLNode) -> Template? {
        do {
            let template = try Template(parsing: text)
            for expression in template.expressions { checkReferences(expression, in: node) }
            return template
        } catch {
            self.error(at: position(in: node, offset: error.offset), "bad expression: \(error.message)")
            return nil
        }
    }

    /// A condition written bare or as `${ ... }` (`when`, `assert`, `until`, `foreach`, `extract.from`).
    func condition(_ node: YAMLNode, _ what: String) -> (Expression, String)? {
        guard let text = node.scalarText else {
            error(at: node.mark, "\(what) must be an expression, not \(node.kindDescription)")
            return nil
        }
        do {
            let expression = try Expression.parseCondition(text)
            checkReferences(expression, in: node)
            checkConditionType(expression, what, in: node)
            return (expression, text)
        } catch {
            self.error(at: position(in: node, offset: error.offset), "bad expression in \(what): \(error.message)")
            return nil
        }
    }

    /// Any value of the file, its strings read as templates.
    func templateValue(_ node: YAMLNode) -> TemplateValue? {
        switch node.content {
        case .sequence(let items):
            let values = items.compactMap(templateValue)
            return values.count == items.count ? .array(values) : nil
        case .mapping(let pairs):
            var values: [NamedTemplate] = []
            for pair in pairs {
                guard let value = templateValue(pair.value) else { return nil }
                values.append(NamedTemplate(name: pair.name, value: value))
            }
            return .object(values)
        case .scalar(let text, _):
            switch node.resolvedScalar {
            case .string, .none:
                // Without `${` there is no `$${` to unescape either.
                guard Template.marks(text) else { return .value(.string(text)) }
                return template(text, at: node).map(TemplateValue.template)
            case .nonFinite(let written):
                error(
                    at: node.mark,
                    "'\(written)' is a number JSON cannot hold; quote it (\"\(written)\") to write it as text")
                return nil
            case let scalar?:
                return scalar.value.map(TemplateValue.value)
            }
        }
    }

    /// A whole number, or exactly one `${expr}` that gives one at run time (a scalar that is one template keeps
    /// its value's type).
    func count(_ node: YAMLNode, _ what: String, minimum: Int) -> CountSetting? {
        if case .string = node.resolvedScalar, let text = node.scalarText, Template.marks(text) {
            guard let template = template(text, at: node) else { return nil }
            guard template.parts.count == 1, case .expression = template.parts[0] else {
                error(at: node.mark, "\(what) must be a whole number or one ${...} that gives one, not '\(text)'")
                return nil
            }
            return .template(template, name: what, minimum: minimum)
        }
        return integer(node, what, minimum: minimum).map(CountSetting.fixed)
    }

    func integer(_ node: YAMLNode, _ what: String, minimum: Int) -> Int? {
        guard let number = node.resolvedScalar?.wholeNumber else {
            error(at: node.mark, "\(what) must be a whole number, not \(node.kindDescription)")
            return nil
        }
        guard number >= minimum else {
            error(at: node.mark, "\(what) must be at least \(minimum), not \(number)")
            return nil
        }
        return number
    }

    func boolean(_ node: YAMLNode, _ what: String) -> Bool? {
        guard case .bool(let flag) = node.resolvedScalar else {
            error(at: node.mark, "\(what) must be true or false, not \(node.kindDescription)")
            return nil
        }
        return flag
    }

    func displayValue(_ node: YAMLNode) -> DisplayValueMode? {
        switch node.resolvedScalar {
        case .bool(let flag): return flag ? .display : .actual
        case .string("all"): return .all
        default:
            error(at: node.mark, "display_value must be true, false or all")
            return nil
        }
    }

    /// `2s`, `500ms`, `1m`, or a number of seconds.
    func duration(_ node: YAMLNode, _ what: String) -> Duration? {
        /// A number of milliseconds that a `Duration` holds (not negative, not past `Int.max`).
        func milliseconds(_ amount: Double) -> Duration? {
            guard amount >= 0, let whole = Int(exactly: amount.rounded(.down)) else { return nil }
            return .milliseconds(whole)
        }
        switch node.resolvedScalar {
        case .number(let number):
            if let duration = milliseconds(number.double * 1000) { return duration }
        case .string(let text):
            let units: [(String, Double)] = [("ms", 1), ("s", 1000), ("m", 60_000)]
            for (unit, factor) in units where text.hasSuffix(unit) {
                if let amount = Double(text.dropLast(unit.count)), let duration = milliseconds(amount * factor) {
                    return duration
                }
            }
        default: break
        }
        error(at: node.mark, "\(what) must be a duration such as 2s, 500ms or 1m")
        return nil
    }

    /// A list of names written as a YAML list or as `a, b, c`.
    func names(_ node: YAMLNode, _ what: String) -> [String]? {
        if let items = node.items {
            var names: [String] = []
            for item in items {
                guard let name = text(item, "each item of \(what)") else { return nil }
                names.append(name)
            }
            return names
        }
        guard let text = text(node, what) else { return nil }
        return text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// Whether `node` is a valid name (`[A-Za-z_][A-Za-z0-9_]*`); records an error otherwise.
    func checkName(_ node: YAMLNode, _ what: String) -> Bool {
        let name = node.scalarText ?? ""
        guard Job.isName(name) else {
            error(
                at: node.mark, "\(what) '\(name)' must be made of letters, digits and '_', and not start with a digit")
            return false
        }
        return true
    }

    /// Where a character of a scalar's text sits in the file (the column moves past an opening quote; a
    /// multi-line scalar points at its start).
    func position(in node: YAMLNode, offset: Int) -> YAMLMark {
        guard case .scalar(let text, let style) = node.content else { return node.mark }
        let prefix = text.prefix(offset)
        guard !prefix.contains(where: \.isNewline) else { return node.mark }
        return node.mark.advanced(by: offset + (style == .quoted ? 1 : 0))
    }
}
