import Foundation
import NowData
import Testing

@testable import LocalInstance

/// `POST /api/now/ui/impersonate/{user}` as test rigs use it: who may impersonate whom, the session that then acts
/// as the user on every route through the same access decision, ending it, and the refusals.
@Suite struct ImpersonationTests {
    private static let beth = DemoData.sysID("sys_user", "beth.anglin")
    private static let joe = DemoData.sysID("sys_user", "joe.employee")
    private static let admin = DemoData.sysID("sys_user", "admin")

    /// A session's cookie header and token, from an impersonation answer.
    private struct Session {
        var cookie: String
        var token: String

        init(_ response: NowHTTPResponse) throws {
            let setCookie = try #require(response.headers.value(named: "Set-Cookie"))
            cookie = try #require(setCookie.split(separator: ";").first.map(String.init))
            token = try #require(response.headers.value(named: "X-UserToken"))
        }

        func headers(writing: Bool = false) -> [(String, String)] {
            [("Cookie", cookie)] + (writing ? [("X-UserToken", token), ("Content-Type", "application/json")] : [])
        }
    }

    private static func started(_ user: String, sysID: String, by impersonator: String) -> String {
        #"{"result":{"user_sys_id":"\#(sysID)","user_name":"\#(user)","impersonating":true,"#
            + #""impersonator":"\#(impersonator)"}}"#
    }

    private func createdBy(_ attack: AttackHarness, _ session: Session) async throws -> NowHTTPResponse {
        try await attack.harness.send(
            "POST", "/api/now/table/incident", query: [("sysparm_fields", "sys_created_by")],
            body: #"{"short_description":"as someone else"}"#, headers: session.headers(writing: true))
    }

    @Test func anAdministratorsSessionActsAsTheUserOnEveryRoute() async throws {
        let attack = try await AttackHarness()
        let started = try await attack.send(.admin, "POST", "/api/now/ui/impersonate/\(Self.beth)", body: "{}")
        #expect(started.statusCode == 200)
        #expect(Harness.text(started) == Self.started("beth.anglin", sysID: Self.beth, by: "admin"))
        let setCookie = try #require(started.headers.value(named: "Set-Cookie"))
        #expect(setCookie.hasSuffix("; Path=/; HttpOnly; SameSite=Strict"))
        let session = try Session(started)

        let created = try await createdBy(attack, session)
        #expect(Harness.text(created) == #"{"result":{"sys_created_by":"beth.anglin"}}"#)
        // The same access decision as beth's own credentials: an ITIL user may not change another user.
        let refused = try await attack.harness.send(
            "PATCH", "/api/now/table/sys_user/\(Self.admin)", body: #"{"title":"x"}"#,
            headers: session.headers(writing: true))
        #expect(refused.statusCode == 403)
        #expect(Harness.text(refused) == AttackHarness.refusal("Update"))
        // Other APIs too (the Aggregate API here).
        let stats = try await attack.harness.send(
            "GET", "/api/now/stats/sys_user", query: [("sysparm_count", "true"), ("sysparm_query", "user_name=admin")],
            headers: session.headers())
        #expect(Harness.text(stats) == #"{"result":{"stats":{"count":"1"}}}"#)

        // A write without the session's token is refused, and so is a wrong one.
        let wrong = (session.token.first == "0" ? "1" : "0") + session.token.dropFirst()
        for token in [nil, wrong] {
            let headers = [("Cookie", session.cookie), ("Content-Type", "application/json")]
                + (token.map { [("X-UserToken", $0)] } ?? [])
            let forged = try await attack.harness.send(
                "POST", "/api/now/table/incident", body: #"{"short_description":"forged"}"#, headers: headers)
            #expect(forged.statusCode == 401)
            #expect(
                Harness.text(forged)
                    == #"{"error":{"message":"User Not Authenticated","detail":"A POST on a session cookie must "#
                    + #"carry the session's token in the X-UserToken header"},"status":"failure"}"#)
        }
        // Credentials on the request win over the cookie.
        let own = try await attack.harness.send(
            "POST", "/api/now/table/incident", query: [("sysparm_fields", "sys_created_by")],
            body: #"{"short_description":"mine"}"#,
            headers: session.headers(writing: true) + [("Authorization", Harness.adminAuth)])
        #expect(Harness.text(own) == #"{"result":{"sys_created_by":"admin"}}"#)
    }

    @Test func impersonatingYourselfEndsItAndAnotherUserSwitches() async throws {
        let attack = try await AttackHarness()
        let session = try Session(
            try await attack.send(.admin, "POST", "/api/now/ui/impersonate/beth.anglin", body: "{}"))
        // Within the session, another user: the caller is still the administrator who logged in.
        let switched = try await attack.harness.send(
            "POST", "/api/now/ui/impersonate/\(Self.joe)", body: "{}", headers: session.headers(writing: true))
        #expect(Harness.text(switched) == Self.started("joe.employee", sysID: Self.joe, by: "admin"))
        #expect(switched.headers.value(named: "Set-Cookie") == nil)
        // joe.employee holds no role: his session may not create an incident.
        #expect(Harness.text(try await createdBy(attack, session)) == AttackHarness.refusal("Insert"))

        let ended = try await attack.harness.send(
            "POST", "/api/now/ui/impersonate/admin", body: "{}", headers: session.headers(writing: true))
        #expect(
            Harness.text(ended)
                == #"{"result":{"user_sys_id":"\#(Self.admin)","user_name":"admin","impersonating":false,"#
                + #""impersonator":null}}"#)
        #expect(Harness.text(try await createdBy(attack, session)) == #"{"result":{"sys_created_by":"admin"}}"#)
        #expect(
            attack.harness.log.all.filter { $0.contains("Impersonate") } == [
                "local instance: Impersonate Begin: admin impersonates beth.anglin",
                "local instance: Impersonate Begin: admin impersonates joe.employee",
                "local instance: Impersonate End: admin acts as themselves again",
            ])
    }

    @Test func aUserWithoutTheRoleOrCredentialsImpersonatesNoOne() async throws {
        let attack = try await AttackHarness()
        for target in [Self.beth, "admin", "nobody"] {
            let refused = try await attack.send(.joe, "POST", "/api/now/ui/impersonate/\(target)", body: "{}")
            #expect(refused.statusCode == 403)
            #expect(
                Harness.text(refused)
                    == #"{"error":{"message":"Insufficient rights to impersonate","detail":"Impersonating needs "#
                    + #"the admin or impersonator role, which 'joe.employee' does not hold"},"status":"failure"}"#)
            #expect(refused.headers.value(named: "Set-Cookie") == nil)
        }
        let anonymous = try await attack.send(.anonymous, "POST", "/api/now/ui/impersonate/\(Self.beth)", body: "{}")
        #expect(Harness.text(anonymous) == AttackHarness.notAuthenticated)
        let get = try await attack.send(.admin, "GET", "/api/now/ui/impersonate/\(Self.beth)")
        #expect(get.statusCode == 405)
        #expect(
            Harness.text(get)
                == #"{"error":{"message":"Method not Supported","detail":"GET method not supported for API"},"#
                + #""status":"failure"}"#)
        let unknown = try await attack.send(.admin, "POST", "/api/now/ui/impersonate/nobody%20here", body: "{}")
        #expect(unknown.statusCode == 404)
        #expect(
            Harness.text(unknown)
                == #"{"error":{"message":"The user you selected could not be impersonated","detail":"No user "#
                + #"has the sys_id or user_name 'nobody here'"},"status":"failure"}"#)
    }

    @Test func anImpersonatorWhoIsNoAdministratorCannotBecomeOne() async throws {
        let attack = try await AttackHarness()
        let granted = try await attack.send(
            .admin, "POST", "/api/now/table/sys_user_has_role",
            body: #"{"user":"\#(DemoData.sysID("sys_user", "itil"))","#
                + #""role":"\#(DemoData.sysID("sys_user_role", "impersonator"))"}"#)
        #expect(granted.statusCode == 201)
        let started = try await attack.send(.itil, "POST", "/api/now/ui/impersonate/\(Self.beth)", body: "{}")
        #expect(Harness.text(started) == Self.started("beth.anglin", sysID: Self.beth, by: "itil"))
        let session = try Session(started)
        // Neither the configured administrator nor a user holding admin, by credentials or within the session.
        for target in ["admin", "alyssa.biasotti"] {
            let expected =
                #"{"error":{"message":"The user you selected could not be impersonated","detail":"'\#(target)' is "#
                + #"an administrator, whom only an administrator may impersonate"},"status":"failure"}"#
            let direct = try await attack.send(.itil, "POST", "/api/now/ui/impersonate/\(target)", body: "{}")
            #expect(direct.statusCode == 403)
            #expect(Harness.text(direct) == expected)
            let within = try await attack.harness.send(
                "POST", "/api/now/ui/impersonate/\(target)", body: "{}", headers: session.headers(writing: true))
            #expect(Harness.text(within) == expected)
        }
        #expect(Harness.text(try await createdBy(attack, session)) == #"{"result":{"sys_created_by":"beth.anglin"}}"#)
        // Once beth is made an administrator, the session that impersonates her ends.
        let promoted = try await attack.send(
            .admin, "POST", "/api/now/table/sys_user_has_role",
            body: #"{"user":"\#(Self.beth)","role":"\#(DemoData.sysID("sys_user_role", "admin"))"}"#)
        #expect(promoted.statusCode == 201)
        let ended = try await attack.harness.send("GET", "/api/now/table/incident", headers: session.headers())
        #expect(Harness.text(ended) == AttackHarness.notAuthenticated)
    }

    @Test func aLockedOutUserIsNotImpersonatedAndTheirSessionEnds() async throws {
        let attack = try await AttackHarness()
        let session = try Session(
            try await attack.send(.admin, "POST", "/api/now/ui/impersonate/\(Self.beth)", body: "{}"))
        let locked = try await attack.send(
            .admin, "PATCH", "/api/now/table/sys_user/\(Self.beth)", body: #"{"locked_out":"true"}"#)
        #expect(locked.statusCode == 200)
        let ended = try await attack.harness.send("GET", "/api/now/table/incident", headers: session.headers())
        #expect(Harness.text(ended) == AttackHarness.notAuthenticated)
        // The session is gone for good: unlocking beth does not bring it back.
        _ = try await attack.send(
            .admin, "PATCH", "/api/now/table/sys_user/\(Self.beth)", body: #"{"locked_out":"false"}"#)
        #expect(try await attack.harness.send("GET", "/api/now/table/incident", headers: session.headers()).statusCode == 401)
        _ = try await attack.send(
            .admin, "PATCH", "/api/now/table/sys_user/\(Self.beth)", body: #"{"locked_out":"true"}"#)
        let refused = try await attack.send(.admin, "POST", "/api/now/ui/impersonate/\(Self.beth)", body: "{}")
        #expect(refused.statusCode == 403)
        #expect(
            Harness.text(refused)
                == #"{"error":{"message":"The user you selected could not be impersonated","detail":"'beth.anglin' "#
                + #"is inactive or locked out"},"status":"failure"}"#)
    }

    @Test func theSessionNeverReachesTheLog() async throws {
        let attack = try await AttackHarness()
        let started = try await attack.send(.admin, "POST", "/api/now/ui/impersonate/\(Self.beth)", body: "{}")
        let session = try Session(started)
        let id = String(session.cookie.drop { $0 != "=" }.dropFirst())
        _ = try await attack.harness.send(
            "POST", "/api/now/table/incident", body: #"{"short_description":"x"}"#, headers: [("Cookie", session.cookie)])
        #expect(!attack.harness.log.all.contains { $0.contains(id) || $0.contains(session.token) })
        #expect(!Harness.text(started).contains(id) && !Harness.text(started).contains(session.token))
    }

    /// A rate-limit rule counts the session's requests as the impersonated user's, as their own credentials would be.
    @Test func theImpersonatedUsersRateLimitCountsTheSessionsRequests() throws {
        let clock = TestClock()
        let harness = try Harness { $0.limits = PlatformLimits(rateRules: true, clock: { clock.now }) }
        let rule = try PlatformLimitsTests.create(
            harness, "sys_rate_limit_rules",
            #"{"name":"Beth","rate_limit":"1","type":"single_user","user":"\#(Self.beth)","rest_api":"table"}"#)
        let started = try PlatformLimitsTests.send(harness, "POST", "/api/now/ui/impersonate/beth.anglin", body: "{}")
        let session = try Session(started)
        func get() throws -> NowHTTPResponse {
            let request = NowHTTPRequest(
                method: "GET", path: "/api/now/table/incident", queryItems: [URLQueryItem(name: "sysparm_limit", value: "1")],
                headers: HTTPHeaders(session.headers()))
            guard case .respond(let response, _) = harness.instance.limitedReply(to: request) else {
                throw URLError(.badServerResponse)
            }
            return response
        }
        let first = try get()
        #expect(first.statusCode == 200)
        #expect(first.headers["X-RateLimit-Rule"] == rule)
        let second = try get()
        #expect(second.statusCode == 429)
        #expect(Harness.text(second) == PlatformLimitsTests.rateLimited(1))
    }
}
