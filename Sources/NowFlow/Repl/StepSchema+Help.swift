import Foundation
extension StepSchema {
    /// A step kind's help: what it does, its parameters with what each is, its results, and whether it has a
    /// short form.
    var help: String {
        let kind = self
        var lines = ["\(kind.name): \(kind.summary)"]
        let keys = kind.parameters?.keys ?? []
        let width = (keys + kind.stepKeys).map(\.name.count).max() ?? 0
        for key in keys {
            let name = key.name.padding(toLength: width, withPad: " ", startingAt: 0)
            lines.append("  \(name)  \(key.summary)\(key.isRequired ? " (required)" : "")")
        }
        for key in kind.stepKeys {
            let name = key.name.padding(toLength: width, withPad: " ", startingAt: 0)
            lines.append("  \(name)  (beside \(kind.name)) \(key.summary)\(key.isRequired ? " (required)" : "")")
        }
        if let results = kind.results, !results.isEmpty {
            lines.append("result: " + results.map { "steps.<id>.\($0)" }.joined(separator: ", "))
        }
        lines.append(
            ShortForm.examples[kind.name].map { "short form: \($0)" }
                ?? "no short form: write it as YAML, as in \(kind.name): { ... }")
        return lines.joined(separator: "\n")
    }
}
