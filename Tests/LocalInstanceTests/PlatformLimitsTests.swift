import Foundation
import NowData
import TestSupport
import Testing

@testable import LocalInstance

/// Issue 26's platform limits, as `nowflow serve --profile pdi` emulates them: rate-limit rules with the
/// platform's precedence and headers (counted by a clock the test moves), the integration semaphore, session
/// synchronization and the transaction quotas, each on the listener's one request path.
@Suite struct PlatformLimitsTests {
    /// The reply of the limits' path, as the listener gets it.
    static func send(
        _ harness: Harness, _ method: String, _ path: String, user: String = "admin", password: String = "secret",
        body: String? = nil
    ) throws -> NowHTTPResponse {
        var headers = HTTPHeaders([("Authorization", "Basic " + Data("\(user):\(password)".utf8).base64EncodedString())])
        if body != nil { headers["Content-Type"] = "application/json" }
        let parts = path.split(separator: "?", maxSplits: 1).map(String.init)
        let query = parts.count == 2 ? URLComponents(string: "?" + parts[1])?.queryItems ?? [] : []
        let request = NowHTTPRequest(
            method: method, path: parts[0], queryItems: query, headers: headers, body: body.map { Data($0.utf8) })
        guard case .respond(let response, _) = harness.instance.limitedReply(to: request) else {
            throw URLError(.badServerResponse)
        }
        return response
    }

    /// Creates a record as admin; its sys_id.
    static func create(_ harness: Harness, _ table: String, _ body: String) throws -> String {
        let response = try send(harness, "POST", "/api/now/table/\(table)", body: body)
        #expect(response.statusCode == 201, "\(table): \(Harness.text(response))")
        return try #require(try Harness.result(response)["sys_id"] as? String)
    }

    static func rateLimited(_ limit: Int, _ api: String = "Table API") -> String {
        #"{"error":{"message":"Rate limit exceeded","detail":"Rate limit of \#(limit) requests per hour for \#(api) exceeded"},"status":"failure"}"#
    }

    @Test func aUserRuleBeatsRoleRulesTheLowestRoleRuleWinsAndAllUsersComeLast() throws {
        let clock = TestClock()
        let harness = try Harness { $0.limits = PlatformLimits(rateRules: true, clock: { clock.now }) }
        let itil = try #require(
            try Harness.results(try Self.send(harness, "GET", "/api/now/table/sys_user_role?sysparm_query=name=itil"))
                .first?["sys_id"] as? String)
        let importAdmin = try Self.create(harness, "sys_user_role", #"{"name":"import_admin"}"#)
        let abel = try Self.create(harness, "sys_user", #"{"user_name":"abel","user_password":"pw"}"#)
        _ = try Self.create(harness, "sys_user", #"{"user_name":"carol","user_password":"pw"}"#)
        for role in [itil, importAdmin] {
            _ = try Self.create(harness, "sys_user_has_role", #"{"user":"\#(abel)","role":"\#(role)"}"#)
        }
        let everyone = try Self.create(
            harness, "sys_rate_limit_rules",
            #"{"name":"Limit incidents","rate_limit":"2","type":"all_users","rest_api":"table","table_name":"incident"}"#)
        _ = try Self.create(
            harness, "sys_rate_limit_rules",
            #"{"name":"Limit incidents by itil","rate_limit":"5","type":"role","role":"\#(itil)","rest_api":"table"}"#)
        let byImportAdmin = try Self.create(
            harness, "sys_rate_limit_rules",
            #"{"name":"Limit by import_admin","rate_limit":"3","type":"role","role":"\#(importAdmin)"}"#)
        let reset = String(Int(clock.now.timeIntervalSince1970) + 3600)

        // abel holds both roles: the lower of the two role rules, 3 an hour, counts his requests.
        for _ in 0..<3 {
            let allowed = try Self.send(harness, "GET", "/api/now/table/incident", user: "abel", password: "pw")
            #expect(allowed.statusCode == 200)
            #expect(allowed.headers["X-RateLimit-Limit"] == "3")
            #expect(allowed.headers["X-RateLimit-Reset"] == reset)
            #expect(allowed.headers["X-RateLimit-Rule"] == byImportAdmin)
            #expect(allowed.headers["Retry-After"] == nil)
        }
        clock.advance(seconds: 600)
        let refused = try Self.send(harness, "GET", "/api/now/table/incident", user: "abel", password: "pw")
        #expect(refused.statusCode == 429)
        #expect(Harness.text(refused) == Self.rateLimited(3))
        #expect(refused.headers["Retry-After"] == "3000")
        #expect(refused.headers["X-RateLimit-Rule"] == byImportAdmin)

        // carol holds neither role: the rule for all users, 2 an hour, on incidents only.
        for _ in 0..<2 {
            let allowed = try Self.send(harness, "GET", "/api/now/table/incident", user: "carol", password: "pw")
            #expect(allowed.headers["X-RateLimit-Rule"] == everyone)
        }
        #expect(try Self.send(harness, "GET", "/api/now/table/incident", user: "carol", password: "pw").statusCode == 429)
        let problems = try Self.send(harness, "GET", "/api/now/table/problem", user: "carol", password: "pw")
        #expect(problems.statusCode == 200)
        #expect(problems.headers["X-RateLimit-Limit"] == nil)

        // A rule for abel alone wins over his roles' (and counts afresh).
        let forAbel = try Self.create(
            harness, "sys_rate_limit_rules",
            #"{"name":"Limit abel","rate_limit":"10","type":"single_user","user":"\#(abel)"}"#)
        let own = try Self.send(harness, "GET", "/api/now/table/incident", user: "abel", password: "pw")
        #expect(own.statusCode == 200)
        #expect(own.headers["X-RateLimit-Limit"] == "10")
        #expect(own.headers["X-RateLimit-Rule"] == forAbel)

        // The next window counts from zero again.
        clock.advance(seconds: 3000)
        let again = try Self.send(harness, "GET", "/api/now/table/incident", user: "carol", password: "pw")
        #expect(again.statusCode == 200)
        #expect(again.headers["X-RateLimit-Reset"] == String(Int(clock.now.timeIntervalSince1970) + 3600))
        #expect(
            harness.instance.limiter?.recentRefusals.map { "\($0.status) \($0.user) \($0.request): \($0.limit)" }
                == [
                    "429 carol GET /api/now/table/incident: rate limit rule Limit incidents",
                    "429 abel GET /api/now/table/incident: rate limit rule Limit by import_admin",
                ])
    }

    @Test func aReadPastItsQuotaIsCancelledWithThePlatformsError() throws {
        let harness = try Harness { $0.limits = PlatformLimits(apiQuota: .nanoseconds(1), batchQuota: .seconds(30)) }
        let read = try Self.send(harness, "GET", "/api/now/table/incident")
        #expect(read.statusCode == 500)
        #expect(
            Harness.text(read)
                == #"{"error":{"message":"Transaction cancelled: maximum execution time exceeded","detail":"Check logs for error trace or enable glide.rest.debug property to verify REST request processing"},"status":"failure"}"#
        )
        #expect(read.headers["Server-Timing"] == "sem_wait;dur=0, sesh_wait;dur=0")
        #expect(harness.instance.limiter?.recentRefusals.map(\.limit) == ["transaction quota"])
    }

    /// `count` requests sent at once over HTTP, each on its own thread, with `headers`; their answers.
    static func together(_ count: Int, port: UInt16, headers: [String: String]) async throws -> [RawHTTPClient.Reply] {
        try await withThrowingTaskGroup(of: RawHTTPClient.Reply.self) { group in
            let request = Array(
                ("GET /api/now/table/incident?sysparm_limit=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + headers.map { "\($0.key): \($0.value)\r\n" }.joined() + "Connection: close\r\n\r\n").utf8)
            for _ in 0..<count {
                group.addTask { try await RawHTTPClient.exchangeOnItsOwnThread(request, port: port) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    static func server(_ limits: PlatformLimits) throws -> LocalInstanceServer {
        var options = LocalInstance.Options(
            adminPassword: "secret", log: { _ in }, passwordIterations: Harness.passwordIterations)
        options.limits = limits
        options.faults = FaultInjection(latency: .milliseconds(1500))
        return try LocalInstanceServer(options: options)
    }

    /// The milliseconds of one wait of `Server-Timing`.
    static func wait(_ name: String, in reply: RawHTTPClient.Reply) -> Int {
        let timing = reply.header("Server-Timing") ?? ""
        let part = timing.split(separator: ",").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(name + ";") }
        return part.flatMap { Int($0.split(separator: "=").last ?? "") } ?? -1
    }

    @Test func pastTheSemaphoreAndItsQueueARequestIsRefused429() async throws {
        let server = try Self.server(PlatformLimits(concurrentRequests: 2, queuedRequests: 1))
        defer { server.stop() }
        let replies = try await Self.together(4, port: server.port, headers: ["Authorization": Harness.adminAuth])
        #expect(replies.map(\.status).sorted() == [200, 200, 200, 429])
        let refused = try #require(replies.first { $0.status == 429 })
        #expect(
            refused.body
                == #"{"error":{"message":"Too Many Requests","detail":"The integration semaphore's queue is full: the instance is handling as many requests as it can. Retry later."},"status":"failure"}"#
        )
        #expect(refused.header("Retry-After") == "1")
        // The queued request waited for one of the two in progress (1.5 s each).
        #expect(replies.filter { $0.status == 200 }.map { Self.wait("sem_wait", in: $0) }.max() ?? 0 >= 1000)
        #expect(replies.filter { $0.status == 200 }.allSatisfy { Self.wait("sesh_wait", in: $0) == 0 })

        // The web view shows what was throttled, to an administrator.
        let client = WebClient(port: server.port)
        #expect(try client.logIn(user: "admin", password: "secret").status == 303)
        let page = try client.get("/throttled.do")
        #expect(page.status == 200)
        #expect(page.main.contains("<p class=\"count\" role=\"status\">1 requests refused or cancelled</p>"))
        #expect(
            page.main.contains(
                "<td class=\"number\">429</td><td>GET /api/now/table/incident</td><td></td><td>integration semaphore</td></tr>"
            ), "\(page.main)")
    }

    @Test func requestsOfOneSessionRunOneAtATimeAndPastTheQueueAre202() async throws {
        let server = try Self.server(PlatformLimits(sessionQueue: 1))
        defer { server.stop() }
        let replies = try await Self.together(
            3, port: server.port, headers: ["Authorization": Harness.adminAuth, "Cookie": "JSESSIONID=ABC"])
        #expect(replies.map(\.status).sorted() == [200, 200, 202])
        let dropped = try #require(replies.first { $0.status == 202 })
        #expect(dropped.body.isEmpty)
        #expect(replies.filter { $0.status == 200 }.map { Self.wait("sesh_wait", in: $0) }.max() ?? 0 >= 1000)
        #expect(replies.allSatisfy { $0.header("Set-Cookie") == nil })

        let fresh = try RawHTTPClient.send(
            "GET", "/api/now/table/incident?sysparm_limit=1", headers: ["Authorization": Harness.adminAuth],
            port: server.port)
        #expect(fresh.status == 200)
        let cookie = try #require(fresh.header("Set-Cookie"))
        #expect(cookie.hasPrefix("JSESSIONID=") && cookie.hasSuffix("; Path=/; HttpOnly"))
    }
}
