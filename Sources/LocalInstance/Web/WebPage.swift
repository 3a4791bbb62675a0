import Foundation
import NowData

/// One HTML page of the web views: the layout around a body (header with the navigator's search, what changed,
/// the user and logout) and the headers every page is sent with.
struct WebPage {
    var title: String
    /// The page's content, already HTML (each value in it escaped).
    var body: String
    /// The user the page is for; nil on the login page.
    var user: WebUser?
    var status: Int = 200
    /// `Set-Cookie` values sent with the page.
    var cookies: [String] = []
    /// What the header's table search holds: the navigator's current search.
    var search = ""

    /// The headers of every web response: no inline script or style, no framing, nothing cached.
    static let securityHeaders: [(String, String)] = [
        (
            "Content-Security-Policy",
            "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; "
                + "base-uri 'none'"
        ),
        ("X-Content-Type-Options", "nosniff"),
        ("X-Frame-Options", "DENY"),
        ("Referrer-Policy", "same-origin"),
        ("Cache-Control", "no-store"),
    ]

    /// The page as a response.
    var response: NowHTTPResponse {
        var headers = HTTPHeaders([("Content-Type", "text/html;charset=UTF-8")] + Self.securityHeaders)
        for cookie in cookies { headers.add(name: "Set-Cookie", value: cookie) }
        return NowHTTPResponse(statusCode: status, headers: headers, body: Data(html.utf8))
    }

    /// The whole document.
    var html: String {
        var header = #"<a class="brand" href="/now">nowflow</a>"#
        if let user {
            header += """
                <form class="search" method="get" action="/now" role="search">\
                <label for="nav-search" class="hidden">Search tables</label>\
                <input id="nav-search" name="sysparm_search" type="search" placeholder="Search tables" \
                value="\(HTML.escape(search))">\
                </form>\
                <nav><a href="/changes.do">What changed</a>\
                <span class="user">\(HTML.escape(user.name))</span>
                """
            if user.sessionID != nil {
                header += """
                    <form class="logout" method="post" action="/logout.do">\(Self.csrfField(user))\
                    <button type="submit">Log out</button></form>
                    """
            }
            header += "</nav>"
        }
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(HTML.escape(title)) | nowflow local instance</title>
            <link rel="stylesheet" href="/web/style.css">
            </head>
            <body>
            <a class="skip" href="#main">Skip to content</a>
            <header>\(header)</header>
            <main id="main">
            \(body)
            </main>
            </body>
            </html>

            """
    }

    /// The hidden field with the user's CSRF token, for every form that writes.
    static func csrfField(_ user: WebUser) -> String {
        #"<input type="hidden" name="sysparm_ck" value=""# + HTML.escape(user.csrfToken) + #"">"#
    }

    /// A `303 See Other` to `location` (a path of this server), with `cookies` set.
    static func redirect(_ location: String, cookies: [String] = []) -> NowHTTPResponse {
        var headers = HTTPHeaders([("Location", location)] + securityHeaders)
        for cookie in cookies { headers.add(name: "Set-Cookie", value: cookie) }
        return NowHTTPResponse(statusCode: 303, headers: headers)
    }

    /// A page that says what went wrong.
    static func message(_ title: String, _ text: String, user: WebUser?, status: Int) -> WebPage {
        WebPage(
            title: title,
            body: "<h1>\(HTML.escape(title))</h1>\n<p class=\"error\" role=\"alert\">\(HTML.escape(text))</p>",
            user: user, status: status)
    }
}
