/// A step the session ran, kept for `:save`: its YAML (with its id), and which earlier step each `steps.<id>` it
/// could use stood for when it ran (an id used again, and `_`, name different steps over time).
struct RecordedStep: Sendable {
    var node: YAMLNode
    var id: String
    /// The index in the session's recorded steps of the step each id stood for.
    var resolution: [String: Int]
    /// The index of the job step it is, when it is one that has its own id in the file (then `:save` can copy it).
    var jobStep: Int?
    /// Its write was taken back by `:undo`: `:save` leaves it out.
    var undone = false
}
