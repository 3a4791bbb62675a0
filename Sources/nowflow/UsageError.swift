/// A mistake in how the command was called; the tool prints it with the usage and exits with status 1.
struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
