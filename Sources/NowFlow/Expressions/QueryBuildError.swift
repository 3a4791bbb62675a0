/// A value that cannot be placed in an encoded query.
struct QueryBuildError: Error, Sendable, Hashable, CustomStringConvertible {
    var message: String

    var description: String { message }
}
