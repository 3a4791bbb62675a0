import Foundation
import NowData

/// The local instance for a person in a browser: server-rendered pages beside the APIs, on the same listener.
///
/// The navigator (`/`, `/now`), list views (`/{table}_list.do`), form views (`/{table}.do?sys_id=...`), what
/// changed (`/changes.do?since=...`), attachment downloads (`/sys_attachment.do?sys_id=...`), login and logout.
/// Every read and write goes through the Table API's handler as the logged-in user, so a page shows what the API
/// answers and a save is refused where a PATCH is, with the same message. No script: every page works as plain
/// HTML forms and links, under a `Content-Security-Policy` that allows none.
final class WebInterface: Sendable {
    let instance: LocalInstance
    /// The instance's sessions, which the APIs honour too.
    var sessions: WebSessions { instance.sessions }

    /// The session cookie's name.
    static let sessionCookie = "nowflow_session"
    /// The cookie that ties a login form to the browser that asked for it.
    static let loginCookie = "nowflow_login"

    init(instance: LocalInstance) {
        self.instance = instance
    }

    /// The page for `request`, or nil when its path is not one of the web views' (the APIs answer it).
    func response(to request: NowHTTPRequest) -> NowHTTPResponse? {
        // `/{table}.do?JSONv2` is the JSONv2 processor, an API: never a form, never the login page.
        guard JSONv2Handler.table(of: request) == nil else { return nil }
        guard let route = WebRoute(path: request.path, dictionary: instance.dictionary) else { return nil }
        let method = request.method.uppercased()
        switch route {
        case .stylesheet:
            return NowHTTPResponse(
                statusCode: 200,
                headers: HTTPHeaders(
                    [("Content-Type", "text/css;charset=UTF-8")]
                        + WebPage.securityHeaders.filter {
                            $0.0 != "Cache-Control"
                        } + [("Cache-Control", "max-age=300")]),
                body: Data(WebStylesheet.css.utf8))
        case .favicon:
            return NowHTTPResponse(statusCode: 204, headers: HTTPHeaders(WebPage.securityHeaders))
        case .login:
            return method == "POST" ? logIn(request) : loginPage(request, failed: false).response
        default:
            break
        }
        let user: WebUser
        do {
            guard let found = try self.user(request) else {
                return WebPage.redirect(WebForm.url("/login.do", [("sysparm_goto", Self.target(of: request))]))
            }
            user = found
        } catch {
            instance.log("local instance: web \(request.method) \(request.path) failed: \(error)")
            return WebPage.message("Internal error", "The instance could not read its users.", user: nil, status: 500)
                .response
        }
        guard method == "GET" || method == "POST" else {
            return WebPage.message("Method not allowed", "\(method) is not supported here.", user: user, status: 405)
                .response
        }
        if method == "POST", !Self.hasValidToken(request, user) {
            return WebPage.message(
                "Invalid security token",
                "The form did not carry this session's security token (sysparm_ck); reload the page and try again.",
                user: user, status: 403
            ).response
        }
        switch route {
        case .navigator:
            // The platform's `nav_to.do?uri=/incident_list.do` opens a page of this server.
            if request.path == "/nav_to.do",
                let uri = Self.localTarget(request.queryItems.last { $0.name == "uri" }?.value)
            {
                return WebPage.redirect(uri)
            }
            return navigator(request, user).response
        case .list(let table): return list(table, request, user)
        case .form(let table): return form(table, request, user)
        case .changes: return changes(request, user).response
        case .lookup: return lookup(request, user).response
        case .throttled: return throttled(user).response
        case .attachment: return attachment(request, user)
        case .oauthAuthorize: return authorize(request, user)
        case .logout:
            guard method == "POST" else {
                return WebPage(
                    title: "Log out",
                    body: """
                        <h1>Log out</h1>
                        <form method="post" action="/logout.do">\(WebPage.csrfField(user))\
                        <button type="submit">Log out</button></form>
                        """, user: user
                ).response
            }
            return logOut(user)
        case .stylesheet, .favicon, .login: return nil
        }
    }

    /// The path and query of `request`, for returning to it after the login page.
    static func target(of request: NowHTTPRequest) -> String {
        WebForm.url(request.path, request.queryItems.map { ($0.name, $0.value ?? "") })
    }

    /// Whether a POST carries the user's CSRF token as `sysparm_ck`.
    static func hasValidToken(_ request: NowHTTPRequest, _ user: WebUser) -> Bool {
        guard let given = WebForm(body: request.body)["sysparm_ck"] else { return false }
        return WebSessions.tokensMatch(given, user.csrfToken)
    }

    /// The value of the cookie called `name`.
    static func cookie(_ name: String, in request: NowHTTPRequest) -> String? {
        guard let header = request.headers.value(named: "Cookie") else { return nil }
        for part in header.split(separator: ";") {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if pair.count == 2, pair[0] == name { return pair[1] }
        }
        return nil
    }

    /// The request's user: by the session cookie (the user it acts as, who may be impersonated), else by its
    /// credentials (Basic or bearer, as the API takes them); nil for neither.
    func user(_ request: NowHTTPRequest) throws -> WebUser? {
        if let (id, session) = try instance.session(of: request) {
            return WebUser(
                name: session.userName, csrfToken: session.csrfToken, sessionID: id,
                timeZone: try timeZone(of: session.userName))
        }
        guard let name = try instance.authenticate(request) else { return nil }
        return WebUser(
            name: name, csrfToken: sessions.basicToken(for: name), sessionID: nil, timeZone: try timeZone(of: name))
    }

    /// The time zone of a user: `sys_user.time_zone` when the dictionary has that field and it names a zone, else
    /// the instance's (``LocalInstance/Options/systemTimeZone``).
    private func timeZone(of userName: String) throws -> TimeZone {
        let system = instance.options.systemTimeZone
        guard instance.dictionary.table("sys_user")?.field("time_zone") != nil else { return system }
        let record = try instance.database.read { [store = instance.store] db in try store.user(named: userName, db) }
        return record.flatMap { TimeZone(identifier: $0.timeZone) } ?? system
    }

    /// A Table or Attachment API request answered as `user`, through the same handler as over HTTP.
    func api(
        _ method: String, _ path: String, _ query: [(String, String)] = [], body: JSONValue? = nil, as user: WebUser
    ) -> NowHTTPResponse {
        var headers: HTTPHeaders = ["Host": "localhost"]
        if body != nil { headers.add(name: "Content-Type", value: "application/json") }
        let request = NowHTTPRequest(
            method: method, path: path, queryItems: query.map { URLQueryItem(name: $0.0, value: $0.1) },
            headers: headers, body: body.map { Data($0.jsonText().utf8) })
        return instance.handle(request, as: user.name)
    }

    /// The `result` of an API answer, or the platform's error message and detail.
    static func result(_ response: NowHTTPResponse) -> Result<JSONValue, WebAPIError> {
        let json = try? JSONValue(json: response.body)
        guard (200..<300).contains(response.statusCode) else {
            let error = json?["error"]
            return .failure(
                WebAPIError(
                    status: response.statusCode, message: error?["message"]?.string ?? "Request failed",
                    detail: error?["detail"]?.string))
        }
        return .success(json?["result"] ?? .null)
    }
}
