/// A REPL session that cannot start: the job's `vars` or `auth` cannot be evaluated.
public struct ReplSessionError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, with no secret in it.
    public var description: String
}
