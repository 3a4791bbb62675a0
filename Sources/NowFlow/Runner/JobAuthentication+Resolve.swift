import NowData

extension JobAuthentication {
    /// The NowData authentication with the templates evaluated (usually from `env`), and the values to mask.
    func resolve(in scope: Scope) throws(EvaluationError) -> (authentication: NowAuthentication, secrets: [String]) {
        var secrets: [String] = []
        func text(_ template: Template) throws(EvaluationError) -> String {
            let value = try template.evaluate(in: scope).text
            secrets.append(value)
            return value
        }
        let authentication: NowAuthentication
        switch self {
        case .basic(let user, let password):
            let (user, password) = (try text(user), try text(password))
            secrets.append(SecretMasker.basicCredentials(user: user, password: password))
            authentication = .basic(user: user, password: password)
        case .oauth(let clientID, let clientSecret, let user, let password):
            authentication = .oauth(
                clientID: try text(clientID), clientSecret: try text(clientSecret), user: try text(user),
                password: try text(password))
        case .oauthJWT(let clientID, let clientSecret, let privateKey, let kid, let user):
            let pem = try privateKey.pem(in: scope)
            secrets += JobPrivateKey.maskedForms(of: pem) + [pem]
            authentication = .jwtBearer(
                clientID: try text(clientID), clientSecret: try text(clientSecret), privateKeyPEM: pem,
                keyID: try text(kid), subject: try text(user))
        case .token(let token):
            authentication = .bearer(StaticAccessToken(token: try text(token)))
        }
        return (authentication, secrets)
    }
}
