import NowData

extension JobAuthentication {
    /// The NowData authentication with the templates evaluated (usually from `env`), and the values to mask.
    func resolve(in scope: Scope) throws(EvaluationError) -> (authentication: NowAuthentication, secrets: [String]) {
        var values: [String] = []
        for template in templates {
            let value = try template.evaluate(in: scope)
            values.append(value.text)
        }
        switch self {
        case .basic: return (.basic(user: values[0], password: values[1]), values)
        case .oauth:
            return (.oauth(clientID: values[0], clientSecret: values[1], user: values[2], password: values[3]), values)
        case .token: return (.bearer(StaticAccessToken(token: values[0])), values)
        }
    }
}
