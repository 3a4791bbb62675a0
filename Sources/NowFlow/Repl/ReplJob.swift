/// A job file loaded for the REPL: the checked job, and its YAML, from which `:save` copies the settings and the
/// steps that ran.
///
/// ```swift
/// let job = try ReplJob.load(path: "workflows/incident-lifecycle.yaml")
/// ```
public struct ReplJob: Sendable {
    /// The checked job.
    public let job: Job
    /// The job's top-level pairs (name, vars, steps, ...).
    let pairs: [YAMLNode.Pair]
    /// The file's text, from which `:save` copies the steps it saves unchanged, with their comments.
    let text: String

    /// What `:next`, `:run` and `:list` answer in a session started without a job.
    static let notLoaded = "error: no job is loaded; start the REPL with a job file: nowflow repl JOB.yaml"

    /// Reads and checks the job file at `path`, as `nowflow run` does.
    public static func load(path: String) throws(JobFileError) -> ReplJob {
        let text = try JobFile.text(at: path)
        let root = try JobFile.root(of: text, file: path)
        return ReplJob(job: try JobFile.job(from: root, file: path), pairs: root?.pairs ?? [], text: text)
    }

    /// The node of a top-level key.
    func node(_ key: String) -> YAMLNode? {
        pairs.first { $0.name == key }?.value
    }

    /// The nodes of the `steps` list, one per step of the job.
    var stepNodes: [YAMLNode] {
        node("steps")?.items ?? []
    }

    /// The lines of the file that hold the job's step at `index`, with the comments above it, as a sequence item
    /// at the left margin (`- id: ...`); nil when the step is not written as a block item of its own lines.
    func sourceLines(ofStep index: Int) -> [String]? {
        let nodes = stepNodes
        guard nodes.indices.contains(index) else { return nil }
        let lines = text.components(separatedBy: "\n")
        let start = nodes[index].mark.line - 1
        // The step ends where the next one starts, or at the next line as far left as `steps:` (a key after it).
        let stepsColumn = pairs.first { $0.name == "steps" }?.key.mark.column ?? 1
        var end = index + 1 < nodes.count ? nodes[index + 1].mark.line - 1 : lines.count
        if index + 1 == nodes.count {
            end = (start + 1..<lines.count).first { line in
                let text = lines[line]
                let indent = text.prefix { $0 == " " }.count
                return !text.trimmingCharacters(in: .whitespaces).isEmpty && indent < stepsColumn
            } ?? lines.count
        }
        guard lines.indices.contains(start), start < end else { return nil }
        let first = lines[start]
        let dash = nodes[index].mark.column - 3
        guard dash >= 0, first.count > dash + 1,
            first.prefix(dash).allSatisfy({ $0 == " " }), Array(first)[dash] == "-"
        else { return nil }
        // The comments just above the step belong to it (the previous step's lines end before them).
        var body = Array(lines[start..<end])
        while let last = body.last, last.trimmingCharacters(in: .whitespaces).isEmpty || last.trimmingCharacters(in: .whitespaces).hasPrefix("#") {
            body.removeLast()
        }
        var above: [String] = []
        var line = start - 1
        while line >= 0, lines[line].trimmingCharacters(in: .whitespaces).hasPrefix("#") {
            above.insert(lines[line], at: 0)
            line -= 1
        }
        let shifted = (above + body).map { text -> String in
            let indent = text.prefix { $0 == " " }.count
            return String(text.dropFirst(min(indent, dash)))
        }
        return shifted
    }
}
