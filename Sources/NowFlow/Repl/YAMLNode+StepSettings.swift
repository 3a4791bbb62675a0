import Foundation
import NowData

/// What the REPL changes in a step's YAML: the id it gives a typed step, the display values `:display` asks for,
/// and the references `:save` renames.
extension YAMLNode {
    /// The node with `display_value: <display>` in its kind's mapping when the kind reads records and the step does
    /// not give one.
    func settingDisplay(_ display: DisplayValueMode?) -> YAMLNode {
        guard let display, var pairs = self.pairs,
            let index = pairs.firstIndex(where: { JobSchema.kind($0.name).map { $0.group == .records && $0.parameterNames.contains("display_value") } == true }),
            let inner = pairs[index].value.pairs, !inner.contains(where: { $0.name == "display_value" })
        else { return self }
        let valueMark = pairs[index].value.mark
        let key = YAMLNode(content: .scalar("display_value", .plain), mark: valueMark)
        let value = YAMLNode(content: .scalar(display.rawValue, .plain), mark: valueMark)
        pairs[index] = YAMLNode.Pair(
            key: pairs[index].key,
            value: YAMLNode(content: .mapping(inner + [YAMLNode.Pair(key: key, value: value)]), mark: valueMark))
        return YAMLNode(content: .mapping(pairs), mark: mark)
    }

    /// The node with `id: <id>` first.
    func settingID(_ id: String) -> YAMLNode {
        let mark = self.mark
        let key = YAMLNode(content: .scalar("id", .plain), mark: mark)
        let value = YAMLNode(content: .scalar(id, .plain), mark: mark)
        let pairs = (self.pairs ?? []).filter { $0.name != "id" }
        return YAMLNode(content: .mapping([YAMLNode.Pair(key: key, value: value)] + pairs), mark: mark)
    }

    /// The node with every `steps.<old>` reference in its scalars replaced by `steps.<new>`.
    func renamingStepReferences(_ renames: [String: String]) -> YAMLNode {
        guard !renames.isEmpty else { return self }
        var node = self
        switch node.content {
        case .scalar(var text, let style):
            for (old, new) in renames {
                let pattern = #"steps\."# + NSRegularExpression.escapedPattern(for: old) + #"(?![A-Za-z0-9_])"#
                text = text.replacingOccurrences(of: pattern, with: "steps.\(new)", options: .regularExpression)
            }
            node.content = .scalar(text, style)
        case .sequence(let items):
            node.content = .sequence(items.map { $0.renamingStepReferences(renames) })
        case .mapping(let pairs):
            node.content = .mapping(pairs.map { YAMLNode.Pair(key: $0.key, value: $0.value.renamingStepReferences(renames)) })
        }
        return node
    }
}
