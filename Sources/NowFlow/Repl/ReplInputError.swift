/// A line the REPL cannot read as a step or a command, with the column where the problem is (0: the whole line).
struct ReplInputError: Error, Sendable, Hashable {
    var message: String
    var column: Int = 0
}
