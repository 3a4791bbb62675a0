import Foundation
import NowData

/// `POST /api/now/ui/impersonate/{user}`: a session that acts as another user, as test rigs start it.
///
/// `{user}` is a `sys_user` sys_id or user_name. The caller is the user who logged in (by credentials, or by the
/// session cookie of an earlier impersonation); they must be an administrator or hold the `impersonator` role, and
/// one who is not an administrator cannot impersonate a user who is (no impersonation raises what a user may do).
/// The impersonated user must be active and not locked out. The answer sets the session cookie
/// (`nowflow_session`; a request that came with it keeps its session) and gives the session's token in
/// `X-UserToken`, which the session's writes carry back. Impersonating yourself ends the impersonation, as does
/// `/logout.do`.
extension LocalInstance {
    /// The path prefix of the impersonation API.
    static let impersonationPath = "/api/now/ui/impersonate/"

    /// The user named by an impersonation path (percent-decoded); nil when the path is not one.
    static func impersonationTarget(_ path: String) -> String? {
        guard path.hasPrefix(impersonationPath) else { return nil }
        let rest = path.dropFirst(impersonationPath.count)
        guard !rest.isEmpty, !rest.contains("/") else { return nil }
        return String(rest).removingPercentEncoding ?? String(rest)
    }

    /// The answer to an impersonation request for `target`, by `user` (already authenticated) or the request's
    /// credentials, or within the request's `session`.
    func impersonate(
        _ request: NowHTTPRequest, target: String, as user: String?,
        session: (id: String, session: WebSessions.Session)?
    ) -> NowHTTPResponse {
        guard request.method.uppercased() == "POST" else {
            return TableAPIError.methodNotSupported(request.method.uppercased()).response
        }
        do {
            let caller: String
            if let session {
                caller = session.session.loginUser
            } else {
                guard let name = try user ?? authenticate(request) else {
                    return TableAPIError.notAuthenticated(request).response
                }
                caller = name
            }
            guard try handler.policy.access(for: caller).holds("impersonator") else {
                log("local instance: \(caller) may not impersonate (neither admin nor impersonator)")
                return Self.insufficientRights(caller).response
            }
            let found = try database.read { [store] db in
                try store.user(sysID: target, db) ?? store.user(named: target, db)
            }
            guard let record = found else {
                return TableAPIError(
                    status: 404, message: "The user you selected could not be impersonated",
                    detail: "No user has the sys_id or user_name '\(target)'"
                ).response
            }
            if record.userName != caller, let refusal = try impersonationRefusal(by: caller, of: record) {
                log("local instance: \(caller) may not impersonate \(record.userName)")
                return refusal.response
            }
            var headers: HTTPHeaders = ["Content-Type": "application/json;charset=UTF-8"]
            let token: String
            if let session {
                guard sessions.impersonate(session.id, as: record.userName) else {
                    return TableAPIError.notAuthenticated(request).response
                }
                token = session.session.csrfToken
            } else {
                guard let hash = try loginHash(of: caller) else {
                    return TableAPIError.notAuthenticated(request).response
                }
                let id = sessions.open(userName: caller, passwordHash: hash, now: now())
                _ = sessions.impersonate(id, as: record.userName)
                token = sessions.session(id, now: now())?.csrfToken ?? ""
                headers.add(
                    name: "Set-Cookie",
                    value: "\(WebInterface.sessionCookie)=\(id); \(WebInterface.cookieAttributes)")
            }
            headers.add(name: "X-UserToken", value: token)
            let impersonating = record.userName != caller
            log(
                impersonating
                    ? "local instance: Impersonate Begin: \(caller) impersonates \(record.userName)"
                    : "local instance: Impersonate End: \(caller) acts as themselves again")
            let body: JSONValue = [
                "result": [
                    "user_sys_id": .string(record.sysID), "user_name": .string(record.userName),
                    "impersonating": .bool(impersonating),
                    "impersonator": impersonating ? .string(caller) : .null,
                ]
            ]
            return NowHTTPResponse(statusCode: 200, headers: headers, body: body.jsonData())
        } catch {
            log("local instance: \(request.method) \(request.path) failed: \(error)")
            return TableAPIError.internalFailure.response
        }
    }

    /// Why `caller` (who holds the admin or impersonator role) may not impersonate `target`; nil when they may:
    /// the target is active and not locked out, and is no administrator unless the caller is one.
    ///
    /// - Throws: when the database cannot be read.
    func impersonationRefusal(by caller: String, of target: UserRecord) throws -> TableAPIError? {
        let callerAccess = handler.policy.access(for: caller)
        guard try callerAccess.holds("impersonator") else { return Self.insufficientRights(caller) }
        guard target.mayLogIn else {
            return TableAPIError(
                status: 403, message: "The user you selected could not be impersonated",
                detail: "'\(target.userName)' is inactive or locked out")
        }
        if try !callerAccess.holds("admin"), try handler.policy.access(for: target.userName).holds("admin") {
            return TableAPIError(
                status: 403, message: "The user you selected could not be impersonated",
                detail: "'\(target.userName)' is an administrator, whom only an administrator may impersonate")
        }
        return nil
    }

    /// 403: `caller` holds neither the admin nor the impersonator role.
    private static func insufficientRights(_ caller: String) -> TableAPIError {
        TableAPIError(
            status: 403, message: "Insufficient rights to impersonate",
            detail: "Impersonating needs the admin or impersonator role, which '\(caller)' does not hold")
    }
}
