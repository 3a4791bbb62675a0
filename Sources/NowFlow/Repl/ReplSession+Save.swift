import Foundation

/// `:save FILE`: the steps run so far as a job file that `nowflow run` accepts and that does what the session did.
///
/// The file keeps the session's instance (`--instance`, else the job's) and the loaded job's settings (`auth`,
/// `coder`, `vars`, `secrets`), then every step
/// that ran (passed or skipped) in order, each with its id, and the job's `finally` once the job's steps have all
/// run (before, it may name steps that have not run; the session runs it when it ends). An
/// id used more than once gets a suffix (`x_2`) in the file, and each reference (`steps._` included) is rewritten
/// to the step it stood for when it ran.
extension ReplSession {
    func save(to path: String) -> String {
        guard !path.isEmpty else { return Self.errorText(":save needs a file name, as in :save session.yaml", column: 0) }
        let text = savedJobText()
        do {
            _ = try JobFile.parse(text, file: path)
        } catch {
            return Self.errorText("the session cannot be saved as a valid job: \(error)", column: 0)
        }
        do {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            return Self.errorText("cannot write \(path): \(error.localizedDescription)", column: 0)
        }
        let count = recorded.count
        return "saved \(count) step\(count == 1 ? "" : "s") to \(path) (nowflow run \(path) runs them again)"
    }

    /// The job file's text.
    func savedJobText() -> String {
        var pairs = [Self.pair("name", Self.scalar(loaded?.job.name ?? "REPL session", quoted: false))]
        pairs.append(Self.pair("description", Self.scalar("Saved from a nowflow repl session.", quoted: false)))
        if let instanceName, instanceName != "local" || loaded?.node("instance") != nil {
            pairs.append(Self.pair("instance", Self.scalar(instanceName, quoted: false)))
        }
        for key in ["auth", "coder", "vars", "secrets"] {
            if let node = loaded?.node(key) { pairs.append(Self.pair(key, node)) }
        }
        pairs.append(Self.pair("steps", YAMLNode(content: .sequence(savedSteps()), mark: YAMLMark(line: 1, column: 1))))
        if let job = loaded?.job, jobStarted, nextStep == job.steps.count, let finally = loaded?.node("finally") {
            pairs.append(Self.pair("finally", finally))
        }
        return YAMLEmitter.text(of: YAMLNode(content: .mapping(pairs), mark: YAMLMark(line: 1, column: 1)))
    }

    /// The recorded steps with unique ids and their references rewritten.
    private func savedSteps() -> [YAMLNode] {
        var used: Set<String> = []
        var savedIDs: [String] = []
        for step in recorded {
            var id = step.id
            var suffix = 2
            while used.contains(id) {
                id = "\(step.id)_\(suffix)"
                suffix += 1
            }
            used.insert(id)
            savedIDs.append(id)
        }
        return recorded.enumerated().map { index, step in
            var renames: [String: String] = [:]
            for (name, target) in step.resolution where savedIDs[target] != name { renames[name] = savedIDs[target] }
            return Self.rewritten(Self.settingID(step.node, savedIDs[index]), renames)
        }
    }

    /// The node with every `steps.<old>` reference in its scalars replaced by `steps.<new>`.
    private static func rewritten(_ node: YAMLNode, _ renames: [String: String]) -> YAMLNode {
        guard !renames.isEmpty else { return node }
        var node = node
        switch node.content {
        case .scalar(var text, let style):
            for (old, new) in renames {
                let pattern = #"steps\."# + NSRegularExpression.escapedPattern(for: old) + #"(?![A-Za-z0-9_])"#
                text = text.replacingOccurrences(of: pattern, with: "steps.\(new)", options: .regularExpression)
            }
            node.content = .scalar(text, style)
        case .sequence(let items):
            node.content = .sequence(items.map { rewritten($0, renames) })
        case .mapping(let pairs):
            node.content = .mapping(pairs.map { YAMLNode.Pair(key: $0.key, value: rewritten($0.value, renames)) })
        }
        return node
    }

    private static func scalar(_ text: String, quoted: Bool) -> YAMLNode {
        YAMLNode(content: .scalar(text, quoted ? .quoted : .plain), mark: YAMLMark(line: 1, column: 1))
    }

    private static func pair(_ name: String, _ value: YAMLNode) -> YAMLNode.Pair {
        YAMLNode.Pair(key: scalar(name, quoted: false), value: value)
    }
}
