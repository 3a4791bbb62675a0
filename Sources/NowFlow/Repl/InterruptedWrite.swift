/// A write interrupted by Ctrl-C after its request may have gone out: a create whose record may exist with the
/// sys_id the runner chose for it, or an update or delete whose records may have changed. The session looks at
/// the instance before the next line (a get of each record) and says what happened; a create is kept meanwhile as
/// `steps.<id>` (`possibly_written: true`).
struct InterruptedWrite: Sendable {
    /// The step's id.
    var id: String
    /// The write as it would be kept had it passed: the records with what they were before.
    var write: SessionWrite
    /// The step's YAML, recorded for `:save` once a create is known to have gone through.
    var node: YAMLNode?
}
