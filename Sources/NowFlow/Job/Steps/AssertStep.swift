/// `assert`: a condition that must hold, with the message shown when it does not.
struct AssertStep: Sendable, Hashable {
    var that: Expression
    var source: String
    var message: Template?
}
