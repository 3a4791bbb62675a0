import Foundation

/// What was throttled, `/throttled.do`: the last requests the ``PlatformLimits`` refused or cancelled (429, 202,
/// quota 500), newest first, with when, who, what and which limit. Only for administrators.
extension WebInterface {
    func throttled(_ user: WebUser) -> WebPage {
        let mayRead = (try? instance.handler.policy.access(for: user.name).holds("admin")) ?? false
        guard mayRead else {
            return WebPage.message(
                "What was throttled", "Only an administrator may see the requests the limits refused.", user: user,
                status: 403)
        }
        guard let limiter = instance.limiter else {
            return WebPage.message(
                "What was throttled",
                "No limit is on: start the server with --profile pdi (or --rate-rules, --semaphore, --session-queue, "
                    + "--api-quota, --batch-quota) to emulate the platform's.", user: user, status: 200)
        }
        let values = WebValues(dictionary: instance.dictionary, timeZone: user.timeZone)
        let refusals = limiter.recentRefusals
        var body = "<h1>What was throttled</h1>\n"
        body += "<p class=\"count\" role=\"status\">\(refusals.count) requests refused or cancelled</p>\n"
        if !refusals.isEmpty {
            body += "<div class=\"scroll\"><table><thead><tr><th scope=\"col\">When</th><th scope=\"col\">Status</th>"
            body += "<th scope=\"col\">Request</th><th scope=\"col\">User</th><th scope=\"col\">Limit</th></tr></thead>"
            body += "<tbody>\n"
            for refusal in refusals {
                body += "<tr><td>\(values.time(Timestamp.string(refusal.time)))</td>"
                body += "<td class=\"number\">\(refusal.status)</td><td>\(HTML.escape(refusal.request))</td>"
                body += "<td>\(HTML.escape(refusal.user))</td><td>\(HTML.escape(refusal.limit))</td></tr>\n"
            }
            body += "</tbody></table></div>\n"
        }
        body += "<p class=\"muted\">The last \(RequestLimiter.keptRefusals) are kept in memory since the server started.</p>\n"
        return WebPage(title: "What was throttled", body: body, user: user)
    }
}
