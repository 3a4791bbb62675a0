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

    /// Reads and checks the job file at `path`, as `nowflow run` does.
    public static func load(path: String) throws(JobFileError) -> ReplJob {
        let root = try JobFile.root(of: try JobFile.text(at: path), file: path)
        return ReplJob(job: try JobFile.job(from: root, file: path), pairs: root?.pairs ?? [])
    }

    /// The node of a top-level key.
    func node(_ key: String) -> YAMLNode? {
        pairs.first { $0.name == key }?.value
    }

    /// The nodes of the `steps` list, one per step of the job.
    var stepNodes: [YAMLNode] {
        node("steps")?.items ?? []
    }
}
