import NowData

/// What expressions can see: `vars`, `env`, `steps` and the names bound by enclosing `foreach` steps.
struct Scope: Sendable {
    var vars: [String: JSONValue] = [:]
    var env: [String: String] = [:]
    var steps: [String: JSONValue] = [:]
    var locals: [String: JSONValue] = [:]
}
