/// Why an encoded query is refused as a whole (the Table API answers 400). Invalid conditions are not errors:
/// they are ignored with a warning, as on the platform.
enum EncodedQueryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A value starts a `javascript:` expression, which only a real instance can run.
    case javascriptValue(condition: String)

    var description: String {
        switch self {
        case .javascriptValue(let condition):
            "encoded query condition '\(condition)' has a javascript: value; the local instance does not run scripts"
        }
    }
}
