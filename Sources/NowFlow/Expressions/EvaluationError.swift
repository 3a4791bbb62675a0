/// An expression that cannot be evaluated; `isMissing` marks a reference to nothing, which `??` replaces.
struct EvaluationError: Error, Sendable, Hashable, CustomStringConvertible {
    var message: String
    var isMissing = false

    var description: String { message }
}
