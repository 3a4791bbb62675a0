import Foundation
import NowData

/// The ``PlatformLimits`` on the listener's path: every REST request the HTTP listener hands the instance goes
/// through ``limitedReply(to:)``, whatever its API.
extension LocalInstance {
    /// The session cookie requests are synchronized by, as the platform's.
    static let sessionCookie = "JSESSIONID"

    /// The reply to `request` within the instance's limits: synchronized with the other requests of its session,
    /// through the integration semaphore, counted by its rate-limit rule and cut off by its transaction quota, with
    /// `Server-Timing` (and the rule's `X-RateLimit-*` headers) added. Without limits, ``reply(to:)``.
    func limitedReply(to request: NowHTTPRequest) -> LocalInstanceReply {
        guard let limiter else { return reply(to: request) }
        let limits = limiter.limits
        let (api, table) = PlatformAPI.of(path: request.path)
        let given = Self.cookie(Self.sessionCookie, in: request)
        let session = limits.sessionQueue == nil ? nil : given
        var extra: [(String, String)] = []
        if limits.sessionQueue != nil, given == nil {
            extra.append(("Set-Cookie", "\(Self.sessionCookie)=\(Self.newSessionID()); Path=/; HttpOnly"))
        }
        let arrived = StatementDeadline.now()
        if let session, !limiter.enterSession(session) {
            refuse(request, user: "", status: 202, limit: "session queue")
            return .respond(Self.timed(NowHTTPResponse(statusCode: 202), since: arrived, sessionWait: 0), after: .zero)
        }
        defer { if let session { limiter.leaveSession(session) } }
        let sessionWait = StatementDeadline.now() &- arrived
        var user: String?
        if limits.rateRules, request.path != "/oauth_token.do" {
            do {
                user =
                    try authenticate(request)
                    ?? (request.carriesCredentials ? nil : self.session(of: request)?.session.userName)
            } catch {
                log("local instance: \(request.method) \(request.path) failed: \(error)")
                return .respond(TableAPIError.internalFailure.response, after: .zero)
            }
            if user == nil, request.carriesCredentials {
                return .respond(TableAPIError.notAuthenticated(request).response, after: .zero)
            }
            if let user, let verdict = rateVerdict(request, api: api, table: table, user: user) {
                extra += verdict.verdict.headers
                if let retryAfter = verdict.verdict.retryAfter {
                    refuse(request, user: user, status: 429, limit: "rate limit rule \(verdict.rule.name)")
                    var error = TableAPIError(
                        status: 429, message: "Rate limit exceeded",
                        detail: "Rate limit of \(verdict.rule.limit) requests per hour for \(api.name) exceeded")
                    for (name, value) in extra { error.headers.add(name: name, value: value) }
                    error.headers.add(name: "Retry-After", value: String(retryAfter))
                    return .respond(Self.timed(error.response, since: arrived, sessionWait: sessionWait), after: .zero)
                }
            }
        }
        let queued = StatementDeadline.now()
        guard limiter.enterSemaphore() else {
            refuse(request, user: user ?? "", status: 429, limit: "integration semaphore")
            var error = TableAPIError(
                status: 429, message: "Too Many Requests",
                detail: "The integration semaphore's queue is full: the instance is handling as many requests as "
                    + "it can. Retry later.")
            error.headers.add(name: "Retry-After", value: "1")
            for (name, value) in extra { error.headers.add(name: name, value: value) }
            return .respond(Self.timed(error.response, since: queued, sessionWait: sessionWait), after: .zero)
        }
        defer { limiter.leaveSemaphore() }
        let semaphoreWait = StatementDeadline.now() &- queued
        let quota = (api == .batch ? limits.batchQuota : api == .other ? nil : limits.apiQuota).map {
            TransactionQuota($0, on: limits.quotaClock)
        }
        var reply = TransactionQuota.$current.withValue(quota) {
            user.map { self.reply(to: request, as: $0) } ?? self.reply(to: request)
        }
        if let quota, quota.isPast, request.method == "GET" {
            // A read that took too long outside SQL too: its answer is the quota's (a write is kept).
            reply = .respond(TableAPIError.executionTimeExceeded.response, after: .zero)
        }
        // Injected latency is the time the instance takes to handle the request: it holds the semaphore and the
        // session, as a slow transaction does.
        switch reply {
        case .respond(_, let delay), .dropConnection(let delay):
            if delay > .zero { Thread.sleep(forTimeInterval: RequestLimiter.seconds(delay)) }
        }
        guard case .respond(var response, _) = reply else { return .dropConnection(after: .zero) }
        if response.statusCode == 500, String(decoding: response.body, as: UTF8.self).contains("maximum execution") {
            refuse(request, user: user ?? "", status: 500, limit: "transaction quota")
        }
        for (name, value) in extra { response.headers.add(name: name, value: value) }
        let timing = "sem_wait;dur=\(semaphoreWait / 1_000_000), sesh_wait;dur=\(sessionWait / 1_000_000)"
        response.headers.add(name: "Server-Timing", value: timing)
        return .respond(response, after: .zero)
    }

    /// The rule counting `request` of `user` and its verdict; nil when no active rule covers it.
    private func rateVerdict(_ request: NowHTTPRequest, api: PlatformAPI, table: String?, user: String) -> (
        rule: RateLimitRule, verdict: RequestLimiter.RateVerdict
    )? {
        guard let limiter else { return nil }
        do {
            let (rules, userSysID) = try database.read { [store] db in
                try (store.rateLimitRules(db), store.user(named: user, db)?.sysID ?? "")
            }
            let covering = rules.filter { $0.covers(api, table: table, method: request.method) }
            guard !covering.isEmpty else { return nil }
            let access = handler.policy.access(for: user)
            guard let rule = try RateLimitRule.applying(covering, toUser: userSysID, holds: { try access.holds($0) })
            else { return nil }
            return (rule, limiter.count(rule, user: user))
        } catch {
            log("local instance: cannot read the rate limit rules: \(error)")
            return nil
        }
    }

    /// Notes a refused request in the log and for the web view.
    private func refuse(_ request: NowHTTPRequest, user: String, status: Int, limit: String) {
        guard let limiter else { return }
        log("local instance: \(request.method) \(request.path) answered \(status): \(limit)")
        limiter.note(
            ThrottleEvent(
                time: limiter.limits.clock(), request: "\(request.method) \(request.path)", user: user, status: status,
                limit: limit))
    }

    /// `response` with `Server-Timing`, the semaphore wait measured from `start`.
    private static func timed(_ response: NowHTTPResponse, since start: UInt64, sessionWait: UInt64)
        -> NowHTTPResponse
    {
        var response = response
        let waited = (StatementDeadline.now() &- start) / 1_000_000
        response.headers.add(name: "Server-Timing", value: "sem_wait;dur=\(waited), sesh_wait;dur=\(sessionWait / 1_000_000)")
        return response
    }

    /// The value of the cookie `name` the request sends, if any.
    static func cookie(_ name: String, in request: NowHTTPRequest) -> String? {
        for header in request.headers where header.name.lowercased() == "cookie" {
            for pair in header.value.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name {
                    return parts[1].trimmingCharacters(in: .whitespaces)
                }
            }
        }
        return nil
    }

    /// A new session id: 32 random hex digits.
    private static func newSessionID() -> String {
        (0..<16).map { _ in String(format: "%02X", UInt8.random(in: 0...255)) }.joined()
    }
}
