import Foundation
import Synchronization
import NowData
import TestSupport
import Testing

@testable import LocalInstance

/// The local instance over HTTP under input an attacker or a careless client sends (issue 11): every answer is a
/// whole, clear error body, and the server still answers afterwards.
@Suite struct HostileInputTests {
    let served: ServedInstance

    init() throws {
        served = try ServedInstance()
    }

    static let notFound =
        #"{"error":{"message":"No Record found","detail":"Record doesn't exist or ACL restricts the record retrieval"},"status":"failure"}"#
    static let notAuthenticated =
        #"{"error":{"message":"User Not Authenticated","detail":"Required to provide Auth information"},"status":"failure"}"#
    static let accessDenied = #"{"error_description":"access_denied","error":"server_error"}"#

    static func invalidQuery(_ detail: String) -> String {
        #"{"error":{"message":"Invalid query","detail":""# + detail + #""},"status":"failure"}"#
    }

    // Row 1: NUL in a value, a path segment and a user name.

    @Test func aValueHoldingNULIsStoredAndReturnedWhole() async throws {
        let created = try await served.send(
            "POST", "/api/now/table/incident?sysparm_fields=short_description,sys_id",
            body: #"{"short_description":"before\u0000after"}"#)
        #expect(created.status == 201)
        let record = try #require(
            try JSONSerialization.jsonObject(with: Data(created.body.utf8)) as? [String: [String: String]])["result"]
        #expect(record?["short_description"] == "before\u{0}after")
        let sysID = try #require(record?["sys_id"])
        let read = try await served.send("GET", "/api/now/table/incident/\(sysID)?sysparm_fields=short_description")
        #expect(read.body == #"{"result":{"short_description":"before\u0000after"}}"#)
    }

    @Test func aSysIDWithNULAndMoreAfterItDeletesNothing() async throws {
        let sysID = DemoData.sysID("incident", "INC0")
        let deleted = try await served.send("DELETE", "/api/now/table/incident/\(sysID)%00garbage")
        #expect(deleted.status == 404)
        #expect(deleted.body == Self.notFound)
        #expect(try await served.send("GET", "/api/now/table/incident/\(sysID)?sysparm_fields=number").status == 200)
        let table = try await served.send("GET", "/api/now/table/incident%00garbage")
        #expect(table.status == 400)
        #expect(table.body == #"{"error":{"message":"Invalid table incident\u0000garbage","detail":null},"status":"failure"}"#)
    }

    @Test func aBasicUserNameWithNULIsComparedWhole() async throws {
        let credentials = "Basic " + Data("admin\u{0}zzz:secret".utf8).base64EncodedString()
        let reply = try await served.send(
            "GET", "/api/now/table/incident?sysparm_limit=1", headers: [("Authorization", credentials)])
        #expect(reply.status == 401)
        #expect(reply.body == Self.notAuthenticated)
        #expect(try await served.stillAnswers())
    }

    // Row 2: request-controlled integers.

    @Test(arguments: [
        "sysparm_offset=9223372036854775807", "sysparm_offset=9223372036854775807&sysparm_limit=9223372036854775807",
        "sysparm_offset=9223372036854775000&sysparm_limit=5000", "sysparm_limit=9223372036854775807&sysparm_offset=1",
    ])
    func hugeOffsetsAndLimitsAnswerAnEmptyPage(query: String) async throws {
        let reply = try await served.send("GET", "/api/now/table/incident?sysparm_fields=number&\(query)")
        #expect(reply.status == 200)
        if query.hasSuffix("offset=1") {
            #expect(reply.header("Link")?.contains(#"rel="next""#) == false)
        } else {
            #expect(reply.body == #"{"result":[]}"#)
            #expect(reply.header("Link")?.contains(#"rel="next""#) == false)
        }
        #expect(try await served.stillAnswers())
    }

    @Test func aModificationCountAtItsLargestStaysThere() async throws {
        let sysID = DemoData.sysID("incident", "INC0")
        let target = "/api/now/table/incident/\(sysID)?sysparm_fields=sys_mod_count"
        let set = try await served.send(
            "PATCH", target + "&sysparm_suppress_auto_sys_field=true", body: #"{"sys_mod_count":"9223372036854775807"}"#)
        #expect(set.body == #"{"result":{"sys_mod_count":"9223372036854775807"}}"#)
        let updated = try await served.send("PATCH", target, body: #"{"short_description":"again"}"#)
        #expect(updated.status == 200)
        #expect(updated.body == #"{"result":{"sys_mod_count":"9223372036854775807"}}"#)
    }

    // Row 3: tokens of a user who can no longer log in.

    /// The writes to a user that end their logins: a lock-out, a deactivation, a new password, a deletion, a rename.
    static let loginEndingChanges = [
        ("PATCH", #"{"locked_out":"true"}"#), ("PATCH", #"{"active":"false"}"#),
        ("PATCH", #"{"user_password":"changed"}"#), ("DELETE", ""), ("PATCH", #"{"user_name":"renamed"}"#),
    ]

    /// Creates the active user `ops` with the password `pw1`; returns its sys_id.
    func createOps() async throws -> String {
        let created = try await served.send(
            "POST", "/api/now/table/sys_user?sysparm_fields=sys_id",
            body: #"{"user_name":"ops","user_password":"pw1","active":"true"}"#)
        return try #require(created.body.split(separator: "\"").dropLast().last.map(String.init))
    }

    /// Sends one of ``loginEndingChanges`` to the user `sysID`, and expects it done.
    func change(_ sysID: String, _ method: String, _ body: String) async throws {
        let reply = try await served.send(method, "/api/now/table/sys_user/\(sysID)", body: method == "DELETE" ? nil : body)
        #expect(reply.status == (method == "DELETE" ? 204 : 200))
    }

    /// The access and refresh tokens of `user` with `password`, over HTTP.
    func tokens(_ user: String, _ password: String) async throws -> (access: String, refresh: String) {
        let reply = try await served.send(
            "POST", "/oauth_token.do", headers: [("Content-Type", "application/x-www-form-urlencoded")],
            body: "grant_type=password&username=\(user)&password=\(password)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(reply.body.utf8)) as? [String: Any])
        return (try #require(object["access_token"] as? String), try #require(object["refresh_token"] as? String))
    }

    func refresh(_ token: String) async throws -> RawHTTPClient.Reply {
        try await served.send(
            "POST", "/oauth_token.do", headers: [("Content-Type", "application/x-www-form-urlencoded")],
            body: "grant_type=refresh_token&refresh_token=\(token)")
    }

    @Test(arguments: loginEndingChanges)
    func aUserWhoCanNoLongerLogInLosesTheirTokensAtOnce(method: String, body: String) async throws {
        let sysID = try await createOps()
        let (access, refreshToken) = try await tokens("ops", "pw1")
        let bearer = [("Authorization", "Bearer \(access)")]
        #expect(try await served.send("GET", "/api/now/table/incident?sysparm_limit=1", headers: bearer).status == 200)
        let unrelated = try await served.send(
            "PATCH", "/api/now/table/sys_user/\(sysID)?sysparm_fields=sys_id", body: #"{"phone":"555"}"#)
        #expect(unrelated.status == 200)
        #expect(try await served.send("GET", "/api/now/table/incident?sysparm_limit=1", headers: bearer).status == 200)

        try await change(sysID, method, body)
        let read = try await served.send("GET", "/api/now/table/incident?sysparm_limit=1", headers: bearer)
        #expect(read.status == 401)
        #expect(read.body == Self.notAuthenticated)
        let write = try await served.send("POST", "/api/now/table/incident", headers: bearer, body: #"{"short_description":"x"}"#)
        #expect(write.status == 401)
        let refreshed = try await refresh(refreshToken)
        #expect(refreshed.status == 401)
        #expect(refreshed.body == Self.accessDenied)
        #expect(try await served.stillAnswers())
    }

    /// The Basic credentials of a user are verified once and then remembered: a change that ends them must still
    /// refuse them on the very next request, over HTTP.
    @Test(arguments: loginEndingChanges)
    func aUserWhoCanNoLongerLogInLosesTheirBasicCredentialsAtOnce(method: String, body: String) async throws {
        let sysID = try await createOps()
        let basic = [("Authorization", "Basic " + Data("ops:pw1".utf8).base64EncodedString())]
        let target = "/api/now/table/sys_user/\(sysID)?sysparm_fields=user_name"
        for _ in 0..<2 {
            let read = try await served.send("GET", target, headers: basic)
            #expect(read.status == 200)
            #expect(read.body == #"{"result":{"user_name":"ops"}}"#)
        }
        try await change(sysID, method, body)
        let read = try await served.send("GET", target, headers: basic)
        #expect(read.status == 401)
        #expect(read.body == Self.notAuthenticated)
        let write = try await served.send("POST", "/api/now/table/incident", headers: basic, body: #"{"short_description":"x"}"#)
        #expect(write.status == 401)
        #expect(write.body == Self.notAuthenticated)
        #expect(try await served.stillAnswers())
    }

    @Test func expiredTokensArePruned() async throws {
        for _ in 0..<20 { _ = try await tokens("admin", "secret") }
        #expect(served.harness.instance.tokens.withLock { $0.count } == 40)
        served.harness.clock.advance(seconds: 101 * 24 * 3600)
        _ = try await tokens("admin", "secret")
        #expect(served.harness.instance.tokens.withLock { $0.count } == 2)
    }

    // Row 9: the log.

    @Test func loggedValuesCannotForgeALineAndOneRequestLogsABoundedAmount() async throws {
        let forged = "nameLIKEx\nlocal instance: admin password changed by root"
        let query = forged.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        let reply = try await served.send("GET", "/api/now/table/incident?sysparm_fields=number&sysparm_query=\(query)")
        #expect(reply.status == 200)
        #expect(
            served.harness.log.all == [
                #"local instance: incident: ignored invalid condition 'nameLIKEx\nlocal instance: admin password changed by root': incident has no field 'name'"#
            ])
        let many = (0..<500).map { "u_nope\($0)=1" }.joined(separator: "%5E")
        let listed = try await served.send("GET", "/api/now/table/incident?sysparm_fields=number&sysparm_query=\(many)")
        #expect(listed.status == 200)
        let lines = served.harness.log.all.dropFirst()
        #expect(lines.count == LogLine.maximumPerRequest)
        #expect(lines.last == "local instance: incident: 491 more notices for this request not logged")
    }

    // Row 10: dates.

    @Test(arguments: [
        ("opened_at", "2026-13-45 99:99:99", "glide_date_time", "yyyy-MM-dd HH:mm:ss date-time (UTC)"),
        ("due_date", "2026-02-30", "glide_date_time", "yyyy-MM-dd HH:mm:ss date-time (UTC)"),
        ("due_date", "tomorrow", "glide_date_time", "yyyy-MM-dd HH:mm:ss date-time (UTC)"),
    ])
    func anImpossibleDateIsRefusedNamingTheFieldAndTheValue(field: String, value: String, type: String, format: String)
        async throws
    {
        let reply = try await served.send("POST", "/api/now/table/incident", body: #"{"short_description":"x",""# + field + #"":""# + value + #""}"#)
        #expect(reply.status == 400)
        #expect(
            reply.body
                == #"{"error":{"message":"Invalid date value for "# + field + #"","detail":"incident."# + field
                + " is a \(type) field: '\(value)' is not a valid \(format)" + #""},"status":"failure"}"#)
        #expect(try await served.stillAnswers())
    }

    @Test func aDateTimeWithATIsAcceptedAsThePlatformDoes() async throws {
        let reply = try await served.send(
            "POST", "/api/now/table/incident?sysparm_fields=due_date,opened_at",
            body: #"{"due_date":"2026-02-03T04:05:06","opened_at":"2026-02-28"}"#)
        #expect(reply.status == 201)
        #expect(reply.body == #"{"result":{"due_date":"2026-02-03 04:05:06","opened_at":"2026-02-28 00:00:00"}}"#)
    }

    @Test func aDateFieldTakesADayAndADateTimesDay() async throws {
        let schema = try temporaryDictionaryFile(
            #"{"tables": [{"name": "u_trip", "fields": [{"name": "u_day", "type": "glide_date"}]}]}"#)
        defer { try? FileManager.default.removeItem(atPath: schema) }
        let served = try ServedInstance { $0.schemaFile = schema }
        let day = try await served.send("POST", "/api/now/table/u_trip?sysparm_fields=u_day", body: #"{"u_day":"2026-03-04"}"#)
        #expect(day.body == #"{"result":{"u_day":"2026-03-04"}}"#)
        let dateTime = try await served.send(
            "POST", "/api/now/table/u_trip?sysparm_fields=u_day", body: #"{"u_day":"2026-03-04T23:59:59"}"#)
        #expect(dateTime.body == #"{"result":{"u_day":"2026-03-04"}}"#)
        let impossible = try await served.send("POST", "/api/now/table/u_trip", body: #"{"u_day":"2026-04-31"}"#)
        #expect(impossible.status == 400)
        #expect(
            impossible.body
                == #"{"error":{"message":"Invalid date value for u_day","detail":"u_trip.u_day is a glide_date field: '2026-04-31' is not a valid yyyy-MM-dd date"},"status":"failure"}"#
        )
        #expect(try await served.stillAnswers())
    }

    // Row 11: malformed bodies and framing.

    @Test func aTrailingCommaIsRefused() async throws {
        let reply = try await served.send("POST", "/api/now/table/incident", body: #"{"short_description":"x",}"#)
        #expect(reply.status == 400)
        #expect(
            reply.body
                == #"{"error":{"message":"Exception while reading request","detail":"The payload is not valid JSON."},"status":"failure"}"#)
        #expect(try await served.stillAnswers())
    }

    @Test func twoDifferentContentLengthsAreRefused() async throws {
        let body = #"{"short_description":"x"}"#
        let reply = try await served.send(
            "POST", "/api/now/table/incident", headers: [("Content-Length", "26"), ("Content-Length", "5")], body: body)
        #expect(reply.status == 400)
        #expect(
            reply.body
                == #"{"error":{"message":"Exception while reading request","detail":"The request has more than one Content-Length header, with different values"},"status":"failure"}"#
        )
        #expect(try await served.stillAnswers())
    }

    // Row 12: Host.

    @Test func aHostThatWouldAddLinkRelationsIsRefused() async throws {
        let host = #"evil.example">;rel="next",<http://attacker"#
        let listed = try await served.send("GET", "/api/now/table/incident?sysparm_limit=1", host: host)
        #expect(listed.status == 400)
        #expect(
            listed.body
                == #"{"error":{"message":"Invalid Host header","detail":"The Host header 'evil.example\">;rel=\"next\",<http://attacker' is not a host name or address with an optional :port"},"status":"failure"}"#
        )
        #expect(listed.header("Link") == nil)
        let created = try await served.send("POST", "/api/now/table/incident", body: #"{"short_description":"x"}"#, host: host)
        #expect(created.status == 400)
        #expect(created.header("Location") == nil)
        let fine = try await served.send(
            "GET", "/api/now/table/incident?sysparm_limit=1&sysparm_fields=number", host: "[::1]:8080")
        #expect(fine.header("Link")?.hasPrefix("<http://[::1]:8080/api/now/table/incident?") == true)
        #expect(try await served.stillAnswers())
    }

    // Row 6: query limits.

    /// Serialized: each case makes the instance parse and run 10,000 conditions; three at once on two cores would
    /// only slow each other.
    @Test(.serialized, arguments: ["^OR", "^", "^NQ"])
    func tenThousandConditionsRunAndOneMoreIsRefused(join: String) async throws {
        func query(_ count: Int) -> String {
            (0..<count).map { "number=INC\($0)" }.joined(separator: join)
                .addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        }
        let most = try await served.send("GET", "/api/now/table/incident?sysparm_fields=number&sysparm_query=\(query(10_000))")
        #expect(most.status == 200)
        let tooMany = try await served.send(
            "GET", "/api/now/table/incident?sysparm_fields=number&sysparm_query=\(query(10_001))")
        #expect(tooMany.status == 400)
        #expect(
            tooMany.body
                == Self.invalidQuery("the encoded query has 10001 conditions; the local instance takes at most 10000"))
        #expect(try await served.stillAnswers())
    }

    @Test func theDocumentedDotWalkDepthIsTheRealOne() async throws {
        let deepest = "caller_id" + String(repeating: ".manager", count: 7) + ".name"
        let deep = try await served.send(
            "GET",
            "/api/now/table/incident?sysparm_fields=number&sysparm_query=ORDERBY\(deepest)%5E\(deepest)ISNOTEMPTY")
        #expect(deep.status == 200)
        let tooDeep = "caller_id" + String(repeating: ".manager", count: 8) + ".name"
        let refused = try await served.send("GET", "/api/now/table/incident?sysparm_query=ORDERBY\(tooDeep)")
        #expect(refused.status == 400)
        #expect(
            refused.body
                == Self.invalidQuery(
                    "the field '\(tooDeep)' walks 9 references; the local instance follows at most 8"))
        #expect(try await served.stillAnswers())
    }

    @Test func tooManyOrderingsAndTooLongAPatternAreRefused() async throws {
        let orderings = (0..<101).map { _ in "ORDERBYnumber" }.joined(separator: "%5E")
        let sorted = try await served.send("GET", "/api/now/table/incident?sysparm_query=\(orderings)")
        #expect(sorted.status == 400)
        #expect(
            sorted.body
                == Self.invalidQuery("the encoded query has 101 ORDERBY terms; the local instance takes at most 100"))
        let fine = try await served.send(
            "GET", "/api/now/table/incident?sysparm_fields=number&sysparm_query=short_descriptionLIKE"
                + String(repeating: "a", count: 10_000))
        #expect(fine.status == 200)
        let long = try await served.send(
            "GET",
            "/api/now/table/incident?sysparm_query=short_descriptionLIKE" + String(repeating: "a", count: 100_000))
        #expect(long.status == 400)
        #expect(
            long.body
                == Self.invalidQuery(
                    "the value compared with short_description is 100000 bytes long; the local instance takes at most "
                        + "10000 for LIKE, STARTSWITH, ENDSWITH and CONTAINS"))
        #expect(try await served.stillAnswers())
    }

    // Row 7: the Link header.

    @Test func aHugeINListOrFieldListGetsAnAnswerWithoutALinkHeader() async throws {
        let numbers = (0..<30_000).map(String.init).joined(separator: ",")
        let listed = try await served.send(
            "GET", "/api/now/table/incident?sysparm_limit=1&sysparm_fields=number&sysparm_query=priorityIN\(numbers)")
        #expect(listed.status == 200)
        #expect(listed.header("Link") == nil)
        #expect(listed.header("X-Total-Count") != nil)
        let fields = (0..<10_000).map { "u_field\($0)" }.joined(separator: ",")
        let wide = try await served.send("GET", "/api/now/table/incident?sysparm_limit=1&sysparm_fields=number,\(fields)")
        #expect(wide.status == 200)
        #expect(wide.header("Link") == nil)
        let tooMany = try await served.send(
            "GET", "/api/now/table/incident?sysparm_query=priorityIN\(numbers),\(numbers.prefix(20_000))")
        #expect(tooMany.status == 400)
        #expect(try await served.stillAnswers())
    }

    // Row 8: many parameters.

    @Test func tenThousandParametersGetAnAnswer() async throws {
        let query = (0..<10_000).map { "p\($0)=1" }.joined(separator: "&")
        let reply = try await served.send("GET", "/api/now/table/incident?\(query)")
        #expect(reply.status == 400)
        #expect(
            reply.body
                == #"{"error":{"message":"Too many query parameters","detail":"The request has more than 1000 query parameters"},"status":"failure"}"#
        )
        let most = Array(repeating: "sysparm_fields=number", count: 999).joined(separator: "&")
        #expect(try await served.send("GET", "/api/now/table/incident?sysparm_limit=1&\(most)").status == 200)
        #expect(try await served.stillAnswers())
    }

    /// The parameters are counted in the request line before libmicrohttpd parses them into the connection's
    /// memory, so the 400 does not depend on how much memory that is (it needs only to hold the request line).
    @Test(arguments: [16 * 1024, 64 * 1024, 512 * 1024])
    func moreThanAThousandParametersGetThe400WhateverTheConnectionMemory(memory: Int) async throws {
        let listener = try HTTPListener(connectionMemory: memory) { [instance = served.harness.instance] in
            instance.reply(to: $0)
        }
        func request(_ query: String) -> [UInt8] {
            Array(
                ("GET /api/now/table/incident?\(query) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "Authorization: \(ServedInstance.adminAuth)\r\nConnection: close\r\n\r\n").utf8)
        }
        let reply = try await RawHTTPClient.exchangeOnItsOwnThread(
            request((0..<1_001).map { "p\($0)" }.joined(separator: "&")), port: listener.port)
        #expect(reply.status == 400)
        #expect(
            reply.body
                == #"{"error":{"message":"Too many query parameters","detail":"The request has more than 1000 query parameters"},"status":"failure"}"#
        )
        let few = try await RawHTTPClient.exchangeOnItsOwnThread(
            request("sysparm_limit=1&sysparm_fields=number"), port: listener.port)
        #expect(few.status == 200)
    }

    /// A query whose parameters, once parsed, would fill the connection's memory is refused before libmicrohttpd
    /// parses it (which would close the connection without an answer): every request line that fits gets an
    /// answer, whatever its length and number of parameters.
    @Test func aQueryThatWouldFillTheConnectionMemoryIsAnswered() async throws {
        let memory = 64 * 1024
        let listener = try HTTPListener(connectionMemory: memory) { [instance = served.harness.instance] in
            instance.reply(to: $0)
        }
        func request(length: Int, parameters: Int) -> [UInt8] {
            let value = String(repeating: "x", count: max(1, length / parameters - 8))
            let query = (0..<parameters).map { "p\($0)=\(value)" }.joined(separator: "&")
            return Array(
                ("GET /api/now/table/incident?sysparm_limit=1&\(query) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "Authorization: \(ServedInstance.adminAuth)\r\nConnection: close\r\n\r\n").utf8)
        }
        var statuses: Set<Int> = []
        for parameters in [1, 300, 999] {
            for length in stride(from: 4 * 1024, through: 72 * 1024, by: 2 * 1024) {
                let reply = try await RawHTTPClient.exchangeOnItsOwnThread(
                    request(length: length, parameters: parameters), port: listener.port)
                #expect([200, 414].contains(reply.status), "\(parameters) parameters in \(length) bytes")
                statuses.insert(reply.status)
            }
        }
        #expect(statuses == [200, 414])
        let refused = try await RawHTTPClient.exchangeOnItsOwnThread(
            request(length: 40 * 1024, parameters: 999), port: listener.port)
        #expect(refused.status == 414)
        #expect(
            refused.body
                == #"{"error":{"message":"Request URI too long","detail":"The request line and its query parameters do not fit in the 64 KB of a connection"},"status":"failure"}"#
        )
    }
}

/// Row 14: slow and greedy clients of the listener.
@Suite struct SlowClientTests {
    @Test func aSilentConnectionIsClosedAfterTheTimeout() async throws {
        let served = try ServedInstance()
        let listener = try HTTPListener(connectionTimeout: .seconds(1)) { [instance = served.harness.instance] in
            instance.reply(to: $0)
        }
        let slow = try RawHTTPClient.Connection(port: listener.port)
        slow.send(Array("GET /api/now/table/incident HTTP/1.1\r\nHo".utf8))
        // The listener closes the connection without an answer once it has been silent for a second.
        #expect(slow.readToEnd() == [])
        let reply = try RawHTTPClient.send(
            "GET", "/api/now/table/sys_user?sysparm_limit=1&sysparm_fields=user_name",
            headers: ["Authorization": ServedInstance.adminAuth], port: listener.port)
        #expect(reply.status == 200)
    }

    /// Headers of about 200 bytes: sent a byte every 200 ms, they would take 40 seconds.
    static let slowHeaders = Array(
        ("GET /api/now/table/sys_user?sysparm_limit=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            + "Authorization: \(ServedInstance.adminAuth)\r\nX-Padding: " + String(repeating: "x", count: 100)
            + "\r\n\r\n").utf8)

    @Test func connectionsTricklingTheirHeadersAreClosedAtTheHeaderDeadlineWhileOthersAreAnswered() async throws {
        let served = try ServedInstance()
        // Twenty seconds, so that the clients meant to be answered are never cut off on a loaded machine (a
        // parallel `swift test` on two busy cores); the slow headers need 40, and more the slower the machine.
        let listener = try HTTPListener(headerTimeout: .seconds(20)) { [instance = served.harness.instance] in
            instance.reply(to: $0)
        }
        // Five connections each sending a header byte every 200 ms: never silent for the 30 s connection timeout.
        let slow = try (0..<5).map { _ in
            try TricklingClient(port: listener.port, chunks: Self.slowHeaders.map { [$0] }, interval: .milliseconds(200))
        }
        // Another client is answered meanwhile, and so is one whose headers come in three parts inside the deadline.
        let reply = try await RawHTTPClient.exchangeOnItsOwnThread(
            Array(
                ("GET /api/now/table/sys_user?sysparm_limit=1&sysparm_fields=user_name HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "Authorization: \(ServedInstance.adminAuth)\r\nConnection: close\r\n\r\n").utf8),
            port: listener.port)
        #expect(reply.status == 200)
        let request = Array(
            ("GET /api/now/table/sys_user?sysparm_limit=1&sysparm_fields=user_name HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                + "Authorization: \(ServedInstance.adminAuth)\r\nConnection: close\r\n\r\n").utf8)
        let unhurried = try TricklingClient(
            port: listener.port, chunks: [Array(request[..<20]), Array(request[20..<60]), Array(request[60...])],
            interval: .milliseconds(200))
        let answer = String(decoding: await unhurried.readToEndAndStop().received, as: UTF8.self)
        #expect(answer.hasPrefix("HTTP/1.1 200 OK\r\n"))
        // Each slow connection is closed without an answer while its headers are still arriving.
        for client in slow {
            let closed = await client.readToEndAndStop()
            #expect(closed.received == [])
            #expect(closed.sent < Self.slowHeaders.count)
        }
        #expect(try await served.stillAnswers())
    }

    @Test func aBodyTricklingInBelowTheMinimumRateIsClosedWhileOneAtANormalPaceIsAnswered() async throws {
        let served = try ServedInstance()
        // Ten seconds, so that the request sent at once is never cut off on a loaded machine; the slow body needs 25.
        let listener = try HTTPListener(headerTimeout: .seconds(10)) { [instance = served.harness.instance] in
            instance.reply(to: $0)
        }
        let body = Array(#"{"short_description":"\#(String(repeating: "x", count: 100))"}"#.utf8)
        func head(_ extra: String = "") -> [UInt8] {
            Array(
                ("POST /api/now/table/incident?sysparm_fields=number HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "Authorization: \(ServedInstance.adminAuth)\r\nContent-Type: application/json\r\n"
                    + "Content-Length: \(body.count)\r\n\(extra)\r\n").utf8)
        }
        // The headers at once, then a body byte every 200 ms, far below 1 KB/s: the body would take 25 seconds. The
        // connection is closed first.
        let slow = try TricklingClient(
            port: listener.port, chunks: [head()] + body.map { [$0] }, interval: .milliseconds(200))
        let closed = await slow.readToEndAndStop()
        #expect(closed.received == [])
        #expect(closed.sent < body.count)
        let created = try await RawHTTPClient.exchangeOnItsOwnThread(
            head("Connection: close\r\n") + body, port: listener.port)
        #expect(created.status == 201)
    }

    @Test func oneClientCannotHoldMoreThanItsShareOfConnections() async throws {
        let served = try ServedInstance()
        let listener = try HTTPListener(connectionsPerClient: 3) { [instance = served.harness.instance] in
            instance.reply(to: $0)
        }
        let held = try (0..<3).map { _ in try RawHTTPClient.Connection(port: listener.port) }
        // Each held connection has an answer (a 400 for `/`) and stays open: the listener counts all three.
        for connection in held {
            connection.send(Array("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
            #expect(String(decoding: connection.readSome(), as: UTF8.self).hasPrefix("HTTP/1.1 400"))
        }
        let refused = try RawHTTPClient.Connection(port: listener.port)
        refused.send(Array("GET /api/now/table/incident HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8))
        #expect(refused.readToEnd() == [])
        withExtendedLifetime(held) {}
    }
}

/// Row 5: one slow query does not stall the rest, and a statement past its budget is stopped.
@Suite struct SlowQueryTests {
    /// Incidents whose descriptions are 200,000 `a`s, for ``slowQuery(conditions:)``.
    static func seedSlowRows(_ served: ServedInstance, rows: Int = 20) async throws {
        let description = String(repeating: "a", count: 200_000)
        for index in 0..<rows {
            let created = try await served.send(
                "POST", "/api/now/table/incident?sysparm_fields=number",
                body: #"{"short_description":"slow \#(index)","description":"\#(description)"}"#)
            #expect(created.status == 201)
        }
    }

    /// A query for descriptions containing any of `conditions` texts that none contains: each is looked for in
    /// every description (LIKE takes linear time, so the work is conditions × rows × 200 KB).
    static func slowQuery(conditions: Int) -> String {
        "/api/now/table/incident?sysparm_fields=number&sysparm_query="
            + (0..<conditions).map { "descriptionLIKE" + String(repeating: "a", count: 20) + "b\($0)" }
            .joined(separator: "%5EOR")
    }

    /// A budget of a second, which the small statements (the seeding, the last read) stay far inside however slow
    /// the machine, and a query of several seconds on an idle one (400 conditions over 40 rows), which cannot.
    @Test func aStatementPastItsBudgetGetsThePlatformsError() async throws {
        let served = try ServedInstance { $0.statementBudget = .seconds(1) }
        try await Self.seedSlowRows(served, rows: 40)
        let reply = try await served.send("GET", Self.slowQuery(conditions: 400))
        #expect(reply.status == 500)
        #expect(
            reply.body
                == #"{"error":{"message":"Transaction cancelled: maximum execution time exceeded","detail":"Check logs for error trace or enable glide.rest.debug property to verify REST request processing"},"status":"failure"}"#
        )
        #expect(
            served.harness.log.all.last
                == "local instance: GET /api/now/table/incident: a statement ran past its time budget")
        #expect(try await served.stillAnswers())
    }

    /// The longest pattern a query takes (10,000 bytes) over a 1 MB value that almost matches it everywhere: SQLite's
    /// own LIKE backtracks for minutes; the instance's answers inside a 30-second budget (ten times what a loaded
    /// machine takes for the linear match, a fraction of the backtracking's), with the right records.
    @Test func aTenKilobytePatternOverAMegabyteValueAnswersInsideTheBudget() async throws {
        let served = try ServedInstance { $0.statementBudget = .seconds(30) }
        let value = String(repeating: "a", count: 1 << 20)
        for (name, tail) in [("almost", ""), ("match", "b")] {
            let created = try await served.send(
                "POST", "/api/now/table/incident?sysparm_fields=number",
                body: #"{"short_description":"\#(name)","description":"\#(value + tail)"}"#)
            #expect(created.status == 201)
        }
        let pattern = String(repeating: "a", count: 9_999) + "b"
        let fields = "/api/now/table/incident?sysparm_fields=short_description&sysparm_query="
        for query in [
            "descriptionLIKE\(pattern)", "description%2A\(pattern)", "descriptionENDSWITH\(pattern)",
            "descriptionSTARTSWITH\(pattern.dropLast())%5EdescriptionLIKE\(pattern)",
        ] {
            let reply = try await served.send("GET", fields + query)
            #expect(reply.status == 200, "\(query.prefix(30))")
            #expect(reply.body == #"{"result":[{"short_description":"match"}]}"#)
        }
        let unlike = try await served.send(
            "GET", fields + "descriptionNOT%20LIKE\(pattern)%5Eshort_descriptionINalmost,match")
        #expect(unlike.body == #"{"result":[{"short_description":"almost"}]}"#)
        #expect(try await served.stillAnswers())
    }

    /// On a database file and on `:memory:` (the embedded instance's default, a private temporary file).
    @Test(arguments: [false, true])
    func aReadAnswersWhileASlowQueryRuns(inMemory: Bool) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("slow-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let served = try ServedInstance { options in
            options.databasePath = inMemory ? ":memory:" : directory.appendingPathComponent("local.db").path
            options.statementBudget = nil
        }
        // About 2 s of LIKE on an idle machine, against a few milliseconds for the three requests beside it.
        try await Self.seedSlowRows(served, rows: 20)
        let slowDone = SlowFlag()
        let slow = Task.detached {
            let reply = try? await served.send("GET", Self.slowQuery(conditions: 150))
            slowDone.set()
            return reply
        }
        // Let the slow query start, then read one user, write one incident and get it by its sys_id beside it.
        while served.harness.instance.database.activeReads == 0 { try await Task.sleep(for: .milliseconds(5)) }
        let user = try await served.send("GET", "/api/now/table/sys_user?sysparm_limit=1&sysparm_fields=user_name")
        #expect(user.status == 200)
        let created = try await served.send(
            "POST", "/api/now/table/incident?sysparm_fields=sys_id", body: #"{"short_description":"beside"}"#)
        #expect(created.status == 201)
        let sysID = String(created.body.dropFirst(#"{"result":{"sys_id":""#.count).prefix(32))
        let got = try await served.send("GET", "/api/now/table/incident/\(sysID)?sysparm_fields=short_description")
        #expect(got.body == #"{"result":{"short_description":"beside"}}"#)
        #expect(!slowDone.isSet)
        #expect(await slow.value?.status == 200)
    }

}

/// Whether a background request has finished.
final class SlowFlag: Sendable {
    private let flag = Mutex(false)
    func set() { flag.withLock { $0 = true } }
    var isSet: Bool { flag.withLock { $0 } }
}
