/// Which web view a path asks for.
enum WebRoute: Equatable {
    case navigator
    case list(TableDefinition)
    case form(TableDefinition)
    case changes
    case lookup
    case throttled
    case attachment
    case login
    case logout
    /// `/oauth_auth.do`, the consent page of the authorization-code grant.
    case oauthAuthorize
    case stylesheet
    case favicon

    /// The path of the page of what changed, which a served instance names on its APIs' answers
    /// (``NowData/NowHTTPResponse/changesPageHeader``).
    static let changesPath = "/changes.do"

    /// The route of `path` (as sent, percent-encoded); nil for the APIs' paths and any other.
    init?(path: String, dictionary: TableDictionary) {
        switch path {
        case "/", "/now", "/now/", "/index.html", "/nav_to.do": self = .navigator
        case Self.changesPath: self = .changes
        case "/lookup.do": self = .lookup
        case "/throttled.do": self = .throttled
        case "/sys_attachment.do": self = .attachment
        case "/login.do": self = .login
        case "/logout.do": self = .logout
        case "/oauth_auth.do": self = .oauthAuthorize
        case "/web/style.css": self = .stylesheet
        case "/favicon.ico": self = .favicon
        default:
            guard path.hasPrefix("/"), path.hasSuffix(".do"), !path.dropFirst().contains("/") else { return nil }
            let name = String(path.dropFirst().dropLast(3))
            if name.hasSuffix("_list"), let table = dictionary.table(String(name.dropLast(5))) {
                self = .list(table)
            } else if let table = dictionary.table(name) {
                self = .form(table)
            } else {
                return nil
            }
        }
    }
}
