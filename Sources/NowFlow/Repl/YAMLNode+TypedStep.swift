import Foundation

/// A step typed at the REPL's prompt, read as the step mapping a job file holds.
extension YAMLNode {
    /// The step mapping of a line typed at the REPL's prompt: the short form when it starts with a kind and a
    /// space (``ShortForm``), YAML otherwise.
    init(typedStep line: String) throws(ReplInputError) {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        var first = String(trimmed.prefix { !$0.isWhitespace })
        if let equals = first.firstIndex(of: "="), ShortForm.stepOptions.contains(String(first[..<equals])) {
            // Options before the kind: `id=opened create incident ...`.
            guard let kind = ShortForm.kind(of: trimmed), !ShortForm.kinds.contains(kind) else {
                self = try ShortForm.node(line)
                return
            }
            first = kind
        }
        if ShortForm.kinds.contains(first) {
            self = try ShortForm.node(line)
            return
        }
        if StepKind.names.contains(first) {
            throw ReplInputError(message: "\(first) has no short form; write it as YAML, as in: \(first): { ... }", column: 1)
        }
        let looksLikeYAML = trimmed.hasPrefix("{") || first.contains(":")
        guard looksLikeYAML else {
            let word = first.closest(among: StepKind.names + SessionCommand.completed.map { String($0.dropFirst()) })
            let hint = word.map { StepKind.names.contains($0) ? "; did you mean '\($0)'?" : "; did you mean ':\($0)'?" } ?? ""
            throw ReplInputError(
                message: "'\(first)' is not a step kind or a command\(hint) (a step: query incident active=true, or query: { table: incident }; :help lists the commands)",
                column: 1)
        }
        let root: YAMLNode?
        do {
            root = try YAMLParser.parse(line)
        } catch {
            throw ReplInputError(message: error.message, column: error.mark.column)
        }
        guard let root, root.pairs != nil else {
            throw ReplInputError(message: "a step is a mapping, as in: query: { table: incident, limit: 5 }", column: 1)
        }
        self = root
    }
}
