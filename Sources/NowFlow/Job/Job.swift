import NowData

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
    /// `rate:`: the most requests the run sends (see ``RunOptions/pacer``); nil: as fast as they come.
    public var rate: RequestRate?
    /// The file the job was read from, as given.
    public var file: String

    var auth: JobAuthentication?
    var coder: CoderSettings
    var vars: [NamedTemplate]
    /// The values of the job's `vars_files`, in order (a later file's value of a name wins).
    var fileVariables: [(name: String, value: JSONValue)] = []
    var secrets: [String]
    var steps: [Step]
    var finally: [Step]
    /// `outputs:`, in order.
    var outputs: [JobOutput] = []
    /// The table and field names written literally, for the name check against the instance.
    var names: [NameUse] = []
    /// What the file's own checks found likely wrong without refusing the job, in file order (then the included
    /// files'): a condition over an empty list written in the file (`where: { sys_id: [] }`), which selects no
    /// record. `nowflow validate` and `nowflow run` show them, `--offline` too, and go on.
    public var warnings: [Diagnostic] = []

    /// Whether the job gives its own credentials (`auth:`).
    public var hasAuthentication: Bool { auth != nil }
    /// The names declared under `vars`, in order, then those only the job's `vars_files` give.
    public var variableNames: [String] {
        let declared = vars.map(\.name)
        var seen = Set(declared)
        return declared + fileVariables.map(\.name).filter { seen.insert($0).inserted }
    }

    /// Every tag of the job's steps (foreach bodies and included jobs too), for `--tags` and `--skip-tags`.
    public var tags: Set<String> {
        func collect(_ steps: [Step]) -> Set<String> {
            steps.reduce(into: Set<String>()) { tags, step in
                tags.formUnion(step.tags)
                switch step.kind {
                case .foreach(let foreach): tags.formUnion(collect(foreach.steps))
                case .include(let include): tags.formUnion(include.job.tags)
                default: break
                }
            }
        }
        return collect(steps + finally)
    }

    /// How many steps the job has at its top level and in `finally`.
    public var stepCount: Int { steps.count + finally.count }

    /// Whether `name` can name a variable, a step, an output or a foreach's item: letters, digits and `_`, not
    /// starting with a digit. Checked by the name's bytes (a name is ASCII; Unicode's letter property is slow to
    /// look up).
    static func isName(_ name: String) -> Bool {
        func canStart(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || byte == UInt8(ascii: "_")
        }
        guard let first = name.utf8.first, canStart(first) else { return false }
        return name.utf8.allSatisfy { canStart($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }
}
