import Foundation

/// `:save FILE`: the steps run so far as a job file that `nowflow run` accepts and that does what the session did.
///
/// The file keeps the loaded job's name and description, the session's instance (`--instance`, else the job's) and
/// the job's settings (`auth`, `coder`, `vars`, `secrets`), then every step that ran (passed or skipped) in order,
/// each with its id (a job step the file gives an id to, saved as it is, is copied with its comments) but those
/// whose write `:undo` took back (the reply names them), and the
/// job's `finally` once a step of the job ran, when the steps it names are saved. A file that exists is written
/// over only by `:save!` (or `:save` answered yes on a terminal). An
/// id used more than once gets a suffix (`x_2`) in the file, and each reference (`steps._` included) is rewritten
/// to the step it stood for when it ran.
extension ReplSession {
    /// `:save FILE` (`force` false) and `:save! FILE` (`force` true). Without `force`, a file that exists (the job
    /// file the session walks above all) is not written: the reply asks for confirmation, which a terminal asks
    /// and a pipe cannot (its answer is the refusal).
    func save(to path: String, force: Bool) -> ReplReply {
        let command = force ? ":save!" : ":save"
        guard !path.isEmpty else {
            return .rejection("\(command) needs a file name, as in \(command) session.yaml", column: 0)
        }
        if !force, FileManager.default.fileExists(atPath: path) {
            let walked = loaded.map { URL(fileURLWithPath: $0.job.file).namesSameFile(as: URL(fileURLWithPath: path)) } ?? false
            let what = walked ? "\(path) is the job file this session walks" : "\(path) exists"
            return ReplReply(
                ReplReply.errorText("not saved: \(what); :save! \(path) writes over it", column: 0),
                confirmation: ReplReply.Confirmation(question: "\(what); write over it? [y/N] ", line: ":save! \(path)"))
        }
        let text: String
        do {
            text = try validSavedText(file: path)
        } catch {
            return ReplReply(ReplReply.errorText("the session cannot be saved as a valid job: \(error)", column: 0))
        }
        do {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            return ReplReply(ReplReply.errorText("cannot write \(path): \(error.localizedDescription)", column: 0))
        }
        let count = recorded.filter { !$0.undone }.count
        let undone = recorded.filter(\.undone).map(\.id)
        let leftOut = undone.isEmpty ? "" : "; left out the undone step\(undone.count == 1 ? "" : "s") \(undone.joined(separator: ", "))"
        return ReplReply(
            "saved \(count) step\(count == 1 ? "" : "s") to \(path) (nowflow run \(path) runs them again)\(leftOut)")
    }

    /// The saved text, with the job's `finally` when the job started and the file is valid with it (the steps it
    /// names have run), else without it.
    private func validSavedText(file: String) throws(JobFileError) -> String {
        if loaded?.node("finally") != nil, jobStarted {
            let text = savedJobText(finally: true)
            if (try? JobFile.parse(text, file: file)) != nil { return text }
        }
        let text = savedJobText(finally: false)
        _ = try JobFile.parse(text, file: file)
        return text
    }

    /// The job file's text: the loaded job's name, description and settings, the steps that ran (those that come
    /// unchanged from the job file copied with their comments), and its `finally` when `finally` (by default when
    /// the job's steps have all run).
    func savedJobText(finally: Bool? = nil) -> String {
        var pairs = [YAMLNode.pair("name", 1, YAMLNode.scalar(loaded?.job.name ?? "REPL session", column: 1, quoted: false))]
        pairs.append(
            YAMLNode.pair("description", 1, loaded?.node("description") ?? YAMLNode.scalar("Saved from a nowflow repl session.", column: 1, quoted: false)))
        if let instanceName, instanceName != "local" || loaded?.node("instance") != nil {
            pairs.append(YAMLNode.pair("instance", 1, YAMLNode.scalar(instanceName, column: 1, quoted: false)))
        }
        for key in ["auth", "coder", "vars", "secrets"] {
            if let node = loaded?.node(key) { pairs.append(YAMLNode.pair(key, 1, node)) }
        }
        var text = YAMLEmitter.text(of: YAMLNode(content: .mapping(pairs), mark: YAMLMark(line: 1, column: 1)))
        if !text.hasSuffix("\n") { text += "\n" }
        text += "steps:"
        let steps = savedSteps()
        if steps.isEmpty { text += " []" }
        text += "\n"
        for step in steps {
            text += step.joined(separator: "\n") + "\n"
        }
        let allRan = loaded.map { jobStarted && nextStep == $0.job.steps.count } ?? false
        if finally ?? allRan, let node = loaded?.node("finally") {
            text += YAMLEmitter.text(of: YAMLNode.mapping([YAMLNode.pair("finally", 1, node)], column: 1))
            if !text.hasSuffix("\n") { text += "\n" }
        }
        return text
    }

    /// The recorded steps but those whose write was undone, with unique ids and their references rewritten, each as
    /// the lines of a sequence item: a job step that is saved as the file has it is copied from the file, with its
    /// comments.
    private func savedSteps() -> [[String]] {
        var used: Set<String> = []
        var savedIDs: [Int: String] = [:]
        for (index, step) in recorded.enumerated() where !step.undone {
            var id = step.id
            var suffix = 2
            while used.contains(id) {
                id = "\(step.id)_\(suffix)"
                suffix += 1
            }
            used.insert(id)
            savedIDs[index] = id
        }
        return recorded.enumerated().compactMap { index, step in
            guard let savedID = savedIDs[index] else { return nil }
            var renames: [String: String] = [:]
            for (name, target) in step.resolution {
                if let saved = savedIDs[target], saved != name { renames[name] = saved }
            }
            let node = step.node.settingID(savedID).renamingStepReferences(renames)
            if let jobStep = step.jobStep, savedID == step.id, node == step.node.settingID(step.id),
                let lines = loaded?.sourceLines(ofStep: jobStep)
            {
                return lines
            }
            let item = YAMLEmitter.text(of: YAMLNode(content: .sequence([node]), mark: YAMLMark(line: 1, column: 1)))
            return item.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty }
        }
    }
}
