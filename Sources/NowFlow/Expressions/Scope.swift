/// What expressions can see: `vars`, `env`, `steps` and the names bound by enclosing `foreach` steps.
struct Scope: Sendable {
    var vars: [String: Value] = [:]
    var env: [String: String] = [:]
    var steps: [String: Value] = [:]
    var locals: [String: Value] = [:]
}
