/// Why a step failed: the message (without the step's label) and whether an assertion failed.
struct StepFailure: Error, Sendable, CustomStringConvertible {
    var message: String
    var isAssertion = false

    init(_ message: String, isAssertion: Bool = false) {
        self.message = message
        self.isAssertion = isAssertion
    }

    var description: String { message }
}
