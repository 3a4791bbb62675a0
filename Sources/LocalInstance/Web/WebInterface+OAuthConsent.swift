import Foundation
import NowData

/// `/oauth_auth.do`: the consent page of the authorization-code grant, for the logged-in user (the login page
/// first, when no one is), as plain HTML forms.
///
/// `GET` checks the application (`client_id`, an active `oauth_entity`) and the redirect URI (one of its
/// `redirect_url`s; the only one when the request names none): a request failing either gets an error page and is
/// never sent on. Then `response_type` must be `code` and any `code_challenge` well formed, with
/// `code_challenge_method` `S256` or `plain` (the default), or the user agent goes back to the redirect URI with
/// RFC 6749's `error`. Otherwise the page asks the user to allow or deny; `POST` (with the session's token) sends
/// the user agent to the redirect URI with a code (``AuthorizationCodeStore``) or `error=access_denied`, and
/// `state` in either case.
extension WebInterface {
    /// The answer to `/oauth_auth.do` for `user`.
    func authorize(_ request: NowHTTPRequest, _ user: WebUser) -> NowHTTPResponse {
        let isPost = request.method.uppercased() == "POST"
        var fields: [String: String] = [:]
        if isPost {
            for (name, value) in WebForm(body: request.body).fields { fields[name] = value }
        } else {
            for item in request.queryItems { fields[item.name] = item.value ?? "" }
        }
        let application: OAuthEntityRecord?
        do {
            application = try instance.oauthApplication(clientID: fields["client_id"] ?? "")
        } catch {
            instance.log("local instance: web \(request.method) \(request.path) failed: \(error)")
            return WebPage.message("Internal error", "The instance could not read its OAuth applications.", user: user, status: 500)
                .response
        }
        guard let application else {
            return WebPage.message(
                "Unknown application",
                "No active OAuth application (oauth_entity) has the client_id '\(fields["client_id"] ?? "")'.",
                user: user, status: 400
            ).response
        }
        let redirect: String
        if let given = fields["redirect_uri"], !given.isEmpty {
            guard application.redirectURLs.contains(given) else {
                return WebPage.message(
                    "Redirect URI not registered",
                    "'\(given)' is not a redirect URL of the application '\(application.name)'.", user: user,
                    status: 400
                ).response
            }
            redirect = given
        } else {
            guard application.redirectURLs.count == 1, let only = application.redirectURLs.first else {
                return WebPage.message(
                    "Redirect URI missing",
                    "The application '\(application.name)' has \(application.redirectURLs.count) redirect URLs: "
                        + "the request must name one as redirect_uri.", user: user, status: 400
                ).response
            }
            redirect = only
        }
        let state = fields["state"] ?? ""
        func back(_ items: [(String, String)]) -> NowHTTPResponse {
            let query = (items + [("state", state)]).filter { !$0.1.isEmpty }
                .map { WebForm.encode($0.0) + "=" + WebForm.encode($0.1) }.joined(separator: "&")
            return WebPage.redirect(redirect + (redirect.contains("?") ? "&" : "?") + query)
        }
        guard fields["response_type"] == "code" else {
            return back([("error", "unsupported_response_type"), ("error_description", "response_type must be code")])
        }
        let challenge = fields["code_challenge"].flatMap { $0.isEmpty ? nil : $0 }
        let method = fields["code_challenge_method"].flatMap { $0.isEmpty ? nil : $0 }
        if let challenge {
            guard method == nil || method == "S256" || method == "plain" else {
                return back([
                    ("error", "invalid_request"), ("error_description", "code_challenge_method must be S256 or plain"),
                ])
            }
            guard LocalInstance.isPKCEValue(challenge) else {
                return back([
                    ("error", "invalid_request"),
                    ("error_description", "code_challenge must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~"),
                ])
            }
        } else if method != nil {
            return back([
                ("error", "invalid_request"), ("error_description", "code_challenge_method without code_challenge"),
            ])
        }
        guard isPost else {
            return consentPage(application: application, redirect: redirect, fields: fields, user: user)
        }
        guard fields["action"] == "allow" else { return back([("error", "access_denied")]) }
        let hash: String?
        do {
            hash = try instance.loginHash(of: user.name)
        } catch {
            instance.log("local instance: web \(request.method) \(request.path) failed: \(error)")
            return WebPage.message("Internal error", "The instance could not read its users.", user: user, status: 500)
                .response
        }
        guard let hash else { return back([("error", "access_denied")]) }
        let now = instance.now()
        let code = instance.authorizationCodes.withLock { codes in
            codes.issue(
                AuthorizationCodeStore.Grant(
                    clientID: application.clientID, redirectURI: redirect,
                    redirectURIGiven: !(fields["redirect_uri"] ?? "").isEmpty, userName: user.name,
                    passwordHash: hash, challenge: challenge, challengeMethod: method ?? "plain",
                    expires: now.addingTimeInterval(AuthorizationCodeStore.lifetime)),
                now: now)
        }
        instance.log("local instance: \(user.name) allowed the OAuth application '\(application.clientID)'")
        return back([("code", code)])
    }

    /// The page that asks `user` to allow or deny `application`, carrying the request's fields to the POST. Its
    /// `Content-Security-Policy` lets the form's answer go on to the redirect URI's origin.
    private func consentPage(
        application: OAuthEntityRecord, redirect: String, fields: [String: String], user: WebUser
    ) -> NowHTTPResponse {
        let carried = ["response_type", "client_id", "redirect_uri", "state", "code_challenge", "code_challenge_method"]
            .compactMap { name in fields[name].map { (name, $0) } }
            .map { #"<input type="hidden" name="\#($0.0)" value="\#(HTML.escape($0.1))">"# }.joined(separator: "\n")
        var response = WebPage(
            title: "Allow access",
            body: """
                <h1>Allow access</h1>
                <p>The application <strong>\(HTML.escape(application.name))</strong> asks to act as \
                <strong>\(HTML.escape(user.name))</strong> on this instance: to read and change what you may.</p>
                <form method="post" action="/oauth_auth.do">\(WebPage.csrfField(user))
                \(carried)
                <button type="submit" name="action" value="allow">Allow</button>
                <button type="submit" name="action" value="deny">Deny</button>
                </form>
                """, user: user
        ).response
        if let origin = Self.origin(of: redirect) {
            let policy = WebPage.securityHeaders.first { $0.0 == "Content-Security-Policy" }?.1 ?? ""
            response.headers["Content-Security-Policy"] = policy.replacingOccurrences(
                of: "form-action 'self'", with: "form-action 'self' \(origin)")
        }
        return response
    }

    /// The origin of a URL for a `Content-Security-Policy` source (`http://localhost:8000`, or `myapp:` for a
    /// URL without a host); nil when it has characters a source cannot hold.
    private static func origin(of url: String) -> String? {
        guard let components = URLComponents(string: url), let scheme = components.scheme else { return nil }
        var origin = scheme + ":"
        if let host = components.percentEncodedHost, !host.isEmpty {
            origin += "//" + host + (components.port.map { ":\($0)" } ?? "")
        }
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+-.:/[]")
        return origin.unicodeScalars.allSatisfy(allowed.contains) ? origin : nil
    }
}
