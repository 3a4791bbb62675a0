/// What ``JobRunner/checkNames()`` found: the problems with the job's table and field names, or why the names
/// could not be checked at all, so that `validate` does not say a job is fine when nothing looked at its names.
///
/// ```swift
/// let check = await JobRunner(job: job, options: options).checkNames()
/// if let reason = check.notChecked { print("ok (names not checked: \(reason))") }
/// ```
public struct NameCheck: Sendable, Hashable {
    /// An unknown name with its position and a did-you-mean, or a warning (``Diagnostic/isWarning``).
    public var diagnostics: [Diagnostic]
    /// Why the names were not checked: `connection refused at 127.0.0.1:8443`, `the instance refused the
    /// credentials (401 ...)`, `cannot read the instance's dictionary (sys_db_object, sys_dictionary): ...`; nil
    /// when they were, or when the job names none.
    public var notChecked: String?
    /// Whether a run must not start: the instance answered but would not show its dictionary, so that the run
    /// would send names nobody checked. (An unreachable instance or refused credentials fail the run's first
    /// request, which says so.)
    public var refusesRun: Bool

    /// A check's outcome.
    public init(diagnostics: [Diagnostic] = [], notChecked: String? = nil, refusesRun: Bool = false) {
        self.diagnostics = diagnostics
        self.notChecked = notChecked
        self.refusesRun = refusesRun
    }
}
