/// The `auth` of a job; each value is a template, usually `${env.NAME}`.
enum JobAuthentication: Sendable, Hashable {
    case basic(user: Template, password: Template)
    case oauth(clientID: Template, clientSecret: Template, user: Template, password: Template)
    case token(Template)
}
