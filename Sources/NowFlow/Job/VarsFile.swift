import Foundation
import NowData

/// A vars file (`vars_files:` in a job, `--vars-file FILE` on the command line): a YAML or JSON mapping of
/// variable names to values, read as plain values (a `${...}` in it is text, not a template).
///
/// ```swift
/// let values = try VarsFile.load(path: "prod.yaml")   // [("caller", "abel.tuter"), ("max_changes", 20)]
/// ```
public enum VarsFile {
    /// The variables of the file at `path`, in file order; its problems as diagnostics in that file.
    public static func load(path: String) throws(JobFileError) -> [(name: String, value: JSONValue)] {
        let text = try JobFile.text(at: path)
        guard let root = try JobFile.root(of: text, file: path) else { return [] }
        var diagnostics: [Diagnostic] = []
        func problem(_ mark: YAMLMark, _ message: String) {
            diagnostics.append(Diagnostic(file: path, line: mark.line, column: mark.column, message: message))
        }
        guard let pairs = root.pairs else {
            problem(root.mark, "a vars file is a mapping of variable names to values, not \(root.kindDescription)")
            throw JobFileError(diagnostics: diagnostics)
        }
        var values: [(name: String, value: JSONValue)] = []
        for pair in pairs {
            guard Job.isName(pair.name) else {
                problem(
                    pair.key.mark,
                    "a variable name '\(pair.name)' must be made of letters, digits and '_', and not start with a digit")
                continue
            }
            if let value = json(of: pair.value, problem: problem) { values.append((pair.name, value)) }
        }
        guard diagnostics.isEmpty else { throw JobFileError(diagnostics: diagnostics) }
        return values
    }

    /// The JSON value of a node, scalars read by the YAML core schema; nil (with a problem) for `.inf` and `.nan`.
    static func json(of node: YAMLNode, problem: (YAMLMark, String) -> Void) -> JSONValue? {
        switch node.content {
        case .sequence(let items):
            let values = items.compactMap { json(of: $0, problem: problem) }
            return values.count == items.count ? .array(values) : nil
        case .mapping(let pairs):
            var members = JSONObject()
            for pair in pairs {
                guard let value = json(of: pair.value, problem: problem) else { return nil }
                members[pair.name] = value
            }
            return .object(members)
        case .scalar:
            guard let value = node.resolvedScalar?.value else {
                let text = node.scalarText ?? ""
                problem(node.mark, "'\(text)' is a number JSON cannot hold; quote it (\"\(text)\") to write it as text")
                return nil
            }
            return value
        }
    }
}
