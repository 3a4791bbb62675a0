/// One step of a job: its kind with its parameters, and the options every step has.
struct Step: Sendable {
    /// `id`: the name under which later steps see the result.
    var id: String?
    var kind: StepKind
    /// `when`: the step runs only when this holds.
    var when: Expression?
    var retry: StepRetry?
    /// `continue_on_error`: a failure is reported, and the job goes on.
    var continueOnError = false
    /// `tags:`: the names `--tags` and `--skip-tags` choose the step by.
    var tags: [String] = []
    /// `once: true`: under `--shard K/N`, the step runs on shard 1 only (others report it skipped).
    var once = false
    /// `show:`: how much of the result `nowflow run` prints.
    var show: ShowSetting = .rows(ShowSetting.defaultRows)
    /// Where the step starts in the file.
    var line: Int
    var column: Int

    /// Whether `name` can be a tag: letters, digits, `_` and `-`.
    static func isTag(_ name: String) -> Bool {
        !name.isEmpty && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }
    }
}
