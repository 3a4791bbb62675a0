/// The `auth` of a job; each value is a template, usually `${env.NAME}`.
enum JobAuthentication: Sendable, Hashable {
    case basic(user: Template, password: Template)
    case oauth(clientID: Template, clientSecret: Template, user: Template, password: Template)
    /// The OAuth JWT bearer grant: assertions about `user` signed with `privateKey`, whose header names `kid`.
    case oauthJWT(clientID: Template, clientSecret: Template, privateKey: JobPrivateKey, kid: Template, user: Template)
    case token(Template)
}
