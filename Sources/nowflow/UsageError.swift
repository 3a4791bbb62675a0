/// A mistake in how the command was called; the tool prints it on one line with where to read the usage
/// (``CommandDeclaration/fail(_:)``) and exits with status 1.
struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
