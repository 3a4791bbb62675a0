import Foundation
import NowData

/// The login form (`/login.do`) and logout (`POST /logout.do`): the same users and passwords as the API, a
/// session cookie that scripts cannot read and other sites cannot send.
extension WebInterface {
    /// The attributes of the web views' cookies.
    static let cookieAttributes = "Path=/; HttpOnly; SameSite=Strict"

    /// The login form; its token is also set as a cookie, and a login must bring back both.
    func loginPage(_ request: NowHTTPRequest, failed: Bool) -> WebPage {
        let token = WebSessions.token()
        let goto =
            Self.localTarget(request.queryItems.last { $0.name == "sysparm_goto" }?.value)
            ?? Self.localTarget(WebForm(body: request.body)["sysparm_goto"]) ?? "/now"
        let error =
            failed
            ? #"<p class="error" role="alert">User name or password invalid</p>"# + "\n" : ""
        var page = WebPage(
            title: "Log in",
            body: """
                <h1>Log in</h1>
                \(error)<form class="login" method="post" action="/login.do">
                <input type="hidden" name="sysparm_ck" value="\(token)">
                <input type="hidden" name="sysparm_goto" value="\(HTML.escape(goto))">
                <label for="user_name">User name</label>
                <input id="user_name" name="user_name" autocomplete="username" required autofocus>
                <label for="user_password">Password</label>
                <input id="user_password" name="user_password" type="password" autocomplete="current-password">
                <button type="submit">Log in</button>
                </form>
                """,
            user: nil, status: failed ? 401 : 200)
        page.cookies = ["\(Self.loginCookie)=\(token); \(Self.cookieAttributes)"]
        return page
    }

    /// `POST /login.do`: a session for a user whose password is right, and back to the page asked for.
    func logIn(_ request: NowHTTPRequest) -> NowHTTPResponse {
        let form = WebForm(body: request.body)
        guard let given = form["sysparm_ck"], let expected = Self.cookie(Self.loginCookie, in: request),
            WebSessions.tokensMatch(given, expected)
        else {
            return WebPage.message(
                "Invalid security token",
                "The login form did not carry its security token; reload the login page and try again.",
                user: nil, status: 403
            ).response
        }
        let userName = form["user_name"] ?? ""
        let hash: String?
        do {
            hash = try instance.logIn(user: userName, password: form["user_password"] ?? "", via: "login form")
        } catch {
            instance.log("local instance: web login failed: \(error)")
            return WebPage.message("Internal error", "The instance could not read its users.", user: nil, status: 500)
                .response
        }
        guard let hash else { return loginPage(request, failed: true).response }
        let id = sessions.open(userName: userName, passwordHash: hash, now: instance.now())
        return WebPage.redirect(
            Self.localTarget(form["sysparm_goto"]) ?? "/now",
            cookies: [
                "\(Self.sessionCookie)=\(id); \(Self.cookieAttributes)",
                "\(Self.loginCookie)=; Max-Age=0; \(Self.cookieAttributes)",
            ])
    }

    /// `POST /logout.do`: ends the session and forgets its cookie.
    func logOut(_ user: WebUser) -> NowHTTPResponse {
        if let id = user.sessionID { sessions.close(id) }
        return WebPage.redirect(
            "/login.do", cookies: ["\(Self.sessionCookie)=; Max-Age=0; \(Self.cookieAttributes)"])
    }

    /// `target` as a path of this server, read as a browser reads a URL (tabs and line breaks removed, spaces and
    /// control characters at either end dropped, `\\` taken as `/`); nil when it then names another site (`//host`)
    /// or is not a path, so that a login never sends the browser elsewhere.
    static func localTarget(_ target: String?) -> String? {
        guard let target else { return nil }
        let scalars = target.unicodeScalars.filter { $0 != "\t" && $0 != "\n" && $0 != "\r" }
            .map { $0 == "\\" ? "/" : $0 }
        let isEdge = { (scalar: Unicode.Scalar) in scalar.value <= 0x20 }
        let trimmed = scalars.drop(while: isEdge).reversed().drop(while: isEdge).reversed()
        let path = String(String.UnicodeScalarView(trimmed))
        guard path.hasPrefix("/"), !path.hasPrefix("//"),
            !path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
        else { return nil }
        return path
    }
}
