/// A job file, read and checked: its settings, variables and steps.
///
/// ```swift
/// let job = try JobFile.load(path: "workflows/incident-lifecycle.yaml")
/// print(job.name, job.stepCount)
/// ```
public struct Job: Sendable {
    /// The job's `name`.
    public var name: String
    /// The job's `description`, if any.
    public var description: String?
    /// `instance`: `local`, a URL or a profile name; nil when the job names none (local).
    public var instance: String?
    /// The file the job was read from, as given.
    public var file: String

    var auth: JobAuthentication?
    var coder: CoderSettings
    var vars: [NamedTemplate]
    var secrets: [String]
    var steps: [Step]
    var finally: [Step]
    /// `outputs:`, in order.
    var outputs: [JobOutput] = []
    /// The table and field names written literally, for the name check against the instance.
    var names: [NameUse] = []

    /// Whether the job gives its own credentials (`auth:`).
    public var hasAuthentication: Bool { auth != nil }
    /// The names declared under `vars`, in order.
    public var variableNames: [String] { vars.map(\.name) }

    /// How many steps the job has at its top level and in `finally`.
    public var stepCount: Int { steps.count + finally.count }
}
