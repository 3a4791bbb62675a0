/// The `auth` of a job; each value is a template, usually `${env.NAME}`.
enum JobAuthentication: Sendable, Hashable {
    case basic(user: Template, password: Template)
    case oauth(clientID: Template, clientSecret: Template, user: Template, password: Template)
    case token(Template)

    /// Every template of the authentication (their values are secrets).
    var templates: [Template] {
        switch self {
        case .basic(let user, let password): [user, password]
        case .oauth(let clientID, let clientSecret, let user, let password): [clientID, clientSecret, user, password]
        case .token(let token): [token]
        }
    }
}
