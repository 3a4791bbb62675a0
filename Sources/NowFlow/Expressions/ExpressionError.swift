/// An expression or template that cannot be read, with the 0-based character offset of the problem.
struct ExpressionError: Error, Sendable, Hashable, CustomStringConvertible {
    var message: String
    var offset: Int

    var description: String { message }
}
