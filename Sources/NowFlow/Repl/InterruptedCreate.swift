/// A create interrupted by Ctrl-C after its request may have gone out: the record may exist with the sys_id the
/// runner chose for it. The session keeps it as `steps.<id>` (`possibly_written: true`) until a get of that
/// sys_id settles it.
struct InterruptedCreate: Sendable {
    var id: String
    var table: String
    var sysID: String
    /// The step's YAML, recorded for `:save` once the record is known to exist.
    var node: YAMLNode?
}
