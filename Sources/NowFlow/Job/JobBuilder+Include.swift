import Foundation
import NowData

/// Reuse: `include:` steps and `vars_files:`, read from files relative to the including job file.
extension JobBuilder {
    /// `path` as written in this file, relative to the file's directory (an absolute path as it is).
    func resolvedPath(_ path: String) -> String {
        guard !path.hasPrefix("/") else { return (path as NSString).standardizingPath }
        let directory = (file as NSString).deletingLastPathComponent
        return ((directory.isEmpty ? path : directory + "/" + path) as NSString).standardizingPath
    }

    /// `include: { file: other.yaml, with: { var: value } }`: the other file read and checked (its problems
    /// reported in it), a cycle refused with the chain of files, `with:` checked against its variables.
    func include(_ node: YAMLNode) -> IncludeStep? {
        guard let pairs = mapping(node, "include") else { return nil }
        checkKeys(pairs, of: JobSchema.includeParameters)
        guard let fileNode = value(pairs, "file") else {
            error(at: node.mark, "include needs file: (a job file, relative to this one)")
            return nil
        }
        guard let written = text(fileNode, "include.file") else { return nil }
        let path = resolvedPath(written)
        let chain = includeChain + [file]
        if let start = chain.firstIndex(where: { JobFile.identity(of: $0) == JobFile.identity(of: path) }) {
            let cycle = (chain[start...] + [path]).joined(separator: " → ")
            error(at: fileNode.mark, "include: \(written) makes a cycle: \(cycle)")
            return nil
        }
        guard FileManager.default.fileExists(atPath: path) else {
            error(at: fileNode.mark, "include: no such file '\(written)' (\(path))")
            return nil
        }
        let job: Job
        do {
            job = try JobFile.load(path: path, includedBy: chain)
        } catch {
            diagnostics += error.diagnostics
            return nil
        }
        includedNames += job.names
        warnings += job.warnings
        var with: [NamedTemplate] = []
        if let withNode = value(pairs, "with"), let parameters = mapping(withNode, "include.with") {
            for parameter in parameters where checkName(parameter.key, "a variable name") {
                guard job.declaration(of: parameter.name) != nil else {
                    let names = job.variableNames
                    let hint = parameter.name.closest(among: names).map { "; did you mean '\($0)'?" } ?? ""
                    let declared =
                        names.isEmpty
                        ? "it declares none"
                        : "it declares \(names.alternatives.replacingOccurrences(of: " or ", with: " and "))"
                    error(
                        at: parameter.key.mark,
                        "include.with: \(written) has no variable '\(parameter.name)' (\(declared))\(hint)")
                    continue
                }
                guard let value = templateValue(parameter.value) else { continue }
                if case .value(let literal) = value {
                    do {
                        _ = try job.value(ofVariable: parameter.name, given: literal, from: "include.with")
                    } catch {
                        self.error(at: parameter.value.mark, error.description)
                        continue
                    }
                }
                with.append(NamedTemplate(name: parameter.name, value: value))
            }
        }
        return IncludeStep(file: written, job: job, with: with)
    }

    /// `vars_files: [common.yaml, ...]`: each file's variables, in order; a name not under `vars:` is declared by
    /// the file (with its value's type), one under `vars:` is checked against its declaration once `vars:` is read.
    func varsFiles(_ node: YAMLNode) -> [(name: String, value: JSONValue, mark: YAMLMark, file: String)] {
        let items = node.items ?? [node]
        var result: [(name: String, value: JSONValue, mark: YAMLMark, file: String)] = []
        for item in items {
            guard let written = text(item, "each item of vars_files") else { continue }
            let path = resolvedPath(written)
            guard FileManager.default.fileExists(atPath: path) else {
                error(at: item.mark, "vars_files: no such file '\(written)' (\(path))")
                continue
            }
            do {
                for (name, value) in try VarsFile.load(path: path) {
                    result.append((name, value, item.mark, written))
                    knownVariables.insert(name)
                    if !assignedVariables.contains(name) { variableTypes[name] = ExpressionType(of: value) }
                }
            } catch {
                diagnostics += error.diagnostics
            }
        }
        return result
    }
}
