import Foundation
import NowData

/// The session cookie on the APIs: a request without credentials of its own that brings an open session's cookie
/// (`nowflow_session`, from the login form or `/api/now/ui/impersonate/{user}`) is the session's user's, on every
/// route and through the same ``AccessPolicy`` as any other; a write must also bring the session's token in
/// `X-UserToken`, as the platform asks of a session's REST calls.
extension LocalInstance {
    /// The session of the request's session cookie, when it is open and still valid: the user who logged in still
    /// may log in with the password they used, and a user they impersonate is still theirs to impersonate (active,
    /// not locked out, the impersonator still holding the role). A session found invalid ends, as the platform
    /// logs out an impersonator whose user was locked out.
    ///
    /// - Throws: when the database cannot be read.
    func session(of request: NowHTTPRequest) throws -> (id: String, session: WebSessions.Session)? {
        guard let id = Self.cookie(WebInterface.sessionCookie, in: request), let session = sessions.session(id, now: now())
        else { return nil }
        var valid = try loginHash(of: session.loginUser) == session.passwordHash
        if valid, let impersonator = session.impersonator {
            let target = try database.read { [store] db in try store.user(named: session.userName, db) }
            valid = try target.map { try impersonationRefusal(by: impersonator, of: $0) == nil } ?? false
        }
        guard valid else {
            sessions.close(id)
            return nil
        }
        return (id, session)
    }

    /// The user a request without credentials acts as through its session cookie; nil when it has credentials or
    /// no valid session.
    ///
    /// - Throws: a 401 for a write without the session's `X-UserToken`, or the database's error.
    func sessionUser(of request: NowHTTPRequest) throws -> (id: String, session: WebSessions.Session)? {
        guard !request.carriesCredentials, let found = try session(of: request) else { return nil }
        let method = request.method.uppercased()
        if method != "GET", method != "HEAD",
            !WebSessions.tokensMatch(request.headers.value(named: "X-UserToken") ?? "", found.session.csrfToken)
        {
            throw TableAPIError(
                status: 401, message: "User Not Authenticated",
                detail: "A \(method) on a session cookie must carry the session's token in the X-UserToken header")
        }
        return found
    }
}
