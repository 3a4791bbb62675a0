/// `include`: another job file's steps (and `finally`), run in a scope of their own with its `vars` set by
/// `with:`; its `outputs:` become this step's result, `steps.<id>.outputs`.
struct IncludeStep: Sendable {
    /// The file as written, relative to the including file.
    var file: String
    /// The included job, read and checked.
    var job: Job
    /// `with:`: values for the included job's variables, evaluated in the including job's scope.
    var with: [NamedTemplate]
}
