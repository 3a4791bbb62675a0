import Foundation
import LocalInstance
import NowData
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite struct HTTPListenerTests {
    /// What the echo handler saw of a request.
    struct Echo: Codable, Equatable {
        var method: String
        var path: String
        var query: [String]
        var custom: String?
        var contentType: String?
        var bodyLength: Int
        var body: String?
    }

    static func echo(_ request: NowHTTPRequest) -> LocalInstanceReply {
        let echo = Echo(
            method: request.method, path: request.path,
            query: request.queryItems.map { item in item.value.map { "\(item.name)=\($0)" } ?? item.name },
            custom: request.headers["x-custom-thing"], contentType: request.headers["Content-Type"],
            bodyLength: request.body?.count ?? 0,
            body: request.body.flatMap { $0.count <= 100 ? String(decoding: $0, as: UTF8.self) : nil })
        let body = (try? JSONEncoder().encode(echo)) ?? Data()
        return .respond(
            NowHTTPResponse(
                statusCode: 200, headers: ["Content-Type": "application/json", "X-Echo": "yes"], body: body),
            after: .zero)
    }

    static func decode(_ reply: HTTPTestClient.Reply) throws -> Echo {
        try JSONDecoder().decode(Echo.self, from: reply.body)
    }

    @Test func passesEveryMethodPathAndBodyToTheHandler() async throws {
        let listener = try HTTPListener(handler: Self.echo)
        defer { listener.stop() }
        let client = HTTPTestClient(port: listener.port)
        for method in ["GET", "POST", "PUT", "PATCH", "DELETE"] {
            let body = method == "GET" || method == "DELETE" ? nil : Data(#"{"short_description":"x"}"#.utf8)
            let reply = try await client.send(
                method, "/api/now/table/incident/abc", headers: ["Content-Type": "application/json"], body: body)
            #expect(reply.status == 200)
            #expect(reply.header("X-Echo") == "yes")
            #expect(
                try Self.decode(reply)
                    == Echo(
                        method: method, path: "/api/now/table/incident/abc", query: [], custom: nil,
                        contentType: "application/json", bodyLength: body?.count ?? 0,
                        body: body.map { String(decoding: $0, as: UTF8.self) }))
        }
    }

    @Test func decodesQueryItemsInTheirOrderWithDuplicates() async throws {
        let listener = try HTTPListener(handler: Self.echo)
        defer { listener.stop() }
        let client = HTTPTestClient(port: listener.port)
        let reply = try await client.send(
            "GET",
            "/api/now/table/incident?sysparm_query=active%3Dtrue%5Epriority%3C%3D2%5EORDERBYDESCsys_created_on"
                + "&b=2&a=1&a=%C3%A9t%C3%A9%20x&sysparm_limit=100&flag")
        #expect(
            try Self.decode(reply).query == [
                "sysparm_query=active=true^priority<=2^ORDERBYDESCsys_created_on", "b=2", "a=1", "a=été x",
                "sysparm_limit=100", "flag",
            ])
        #expect(try Self.decode(reply).path == "/api/now/table/incident")
    }

    @Test func acceptsAQueryOfAThousandSysIDs() async throws {
        let listener = try HTTPListener(handler: Self.echo)
        defer { listener.stop() }
        let sysIDs = (0..<1_000).map { String(repeating: String($0 % 10), count: 32) }.joined(separator: ",")
        let reply = try await HTTPTestClient(port: listener.port).send(
            "GET", "/api/now/table/incident?sysparm_query=sys_idIN" + sysIDs)
        #expect(reply.status == 200)
        #expect(try Self.decode(reply).query == ["sysparm_query=sys_idIN" + sysIDs])
    }

    @Test func passesThePathAsSentAndTheQueryDecoded() async throws {
        let listener = try HTTPListener(handler: Self.echo)
        defer { listener.stop() }
        let reply = try await HTTPTestClient(port: listener.port).send(
            "GET", "/api/now/table/u_a%20b/%C3%A9%2Fx%23y%3F?x=%2B+y")
        #expect(try Self.decode(reply).path == "/api/now/table/u_a%20b/%C3%A9%2Fx%23y%3F")
        #expect(try Self.decode(reply).query == ["x=+ y"])
        let malformed = try RawHTTPClient.send("GET", "/api/now/table/a%zz%?x=1", port: listener.port)
        let echo = try JSONDecoder().decode(Echo.self, from: Data(malformed.body.utf8))
        #expect(echo.path == "/api/now/table/a%zz%")
        #expect(echo.query == ["x=1"])
    }

    @Test func passesRequestHeaders() async throws {
        let listener = try HTTPListener(handler: Self.echo)
        defer { listener.stop() }
        let client = HTTPTestClient(port: listener.port)
        let reply = try await client.send("GET", "/x", headers: ["X-Custom-Thing": "value with spaces"])
        #expect(try Self.decode(reply).custom == "value with spaces")
    }

    @Test func acceptsLargeBodiesAndRefusesOnesOverTheLimit() async throws {
        let listener = try HTTPListener(bodyLimit: 3_000_000, handler: Self.echo)
        defer { listener.stop() }
        let client = HTTPTestClient(port: listener.port)
        let large = try await client.send("POST", "/upload", body: Data(repeating: 0x61, count: 2_500_000))
        #expect(try Self.decode(large).bodyLength == 2_500_000)
        let tooLarge = try await client.send("POST", "/upload", body: Data(repeating: 0x61, count: 3_000_001))
        #expect(tooLarge.status == 413)
        #expect(
            tooLarge.text
                == #"{"error":{"message":"Request body too large","detail":"The body exceeds 3000000 bytes"},"#
                + #""status":"failure"}"#)
    }

    @Test func sendsTheHandlersStatusHeadersAndBody() async throws {
        let listener = try HTTPListener { _ in
            var headers = HTTPHeaders()
            headers.add(name: "Content-Type", value: "application/json;charset=UTF-8")
            headers.add(name: "X-Total-Count", value: "42")
            headers.add(name: "Link", value: #"<http://x/?sysparm_offset=0>;rel="first""#)
            return .respond(
                NowHTTPResponse(statusCode: 404, headers: headers, body: Data(#"{"status":"failure"}"#.utf8)),
                after: .zero)
        }
        defer { listener.stop() }
        let reply = try await HTTPTestClient(port: listener.port).send("GET", "/api/now/table/incident/none")
        #expect(reply.status == 404)
        #expect(reply.header("Content-Type") == "application/json;charset=UTF-8")
        #expect(reply.header("X-Total-Count") == "42")
        #expect(reply.header("Link") == #"<http://x/?sysparm_offset=0>;rel="first""#)
        #expect(reply.text == #"{"status":"failure"}"#)
    }

    @Test func answersNoContentWithAnEmptyBody() async throws {
        let listener = try HTTPListener { _ in .respond(NowHTTPResponse(statusCode: 204), after: .zero) }
        defer { listener.stop() }
        let reply = try await HTTPTestClient(port: listener.port).send("DELETE", "/api/now/table/incident/abc")
        #expect(reply.status == 204)
        #expect(reply.body.isEmpty)
    }

    @Test func returnsA401WithItsChallengeWithoutHanging() async throws {
        let listener = try HTTPListener { _ in
            .respond(
                NowHTTPResponse(
                    statusCode: 401, headers: ["WWW-Authenticate": #"BASIC realm="Service-now""#],
                    body: Data(#"{"error":{"message":"User Not Authenticated"}}"#.utf8)),
                after: .zero)
        }
        defer { listener.stop() }
        let reply = try await HTTPTestClient(port: listener.port).send("GET", "/api/now/table/incident")
        #expect(reply.status == 401)
        #expect(reply.header("WWW-Authenticate") == #"BASIC realm="Service-now""#)
    }

    @Test func delaysTheReplyOnItsOwnConnectionOnly() async throws {
        // The slow request holds its handler until the fast one, sent once the slow one is in its handler, has
        // been handled too: a listener that served one request at a time would answer the slow one 500.
        let slowArrived = DispatchSemaphore(value: 0)
        let fastArrived = DispatchSemaphore(value: 0)
        let listener = try HTTPListener { request in
            if request.path == "/slow" {
                slowArrived.signal()
                let overtaken = fastArrived.wait(timeout: .now() + 60) == .success
                return .respond(
                    NowHTTPResponse(statusCode: overtaken ? 200 : 500, body: Data("slow".utf8)),
                    after: .milliseconds(150))
            }
            fastArrived.signal()
            return .respond(NowHTTPResponse(statusCode: 200, body: Data("fast".utf8)), after: .zero)
        }
        defer { listener.stop() }
        let client = HTTPTestClient(port: listener.port)
        let clock = ContinuousClock()
        let start = clock.now
        async let slow = client.send("GET", "/slow")
        #expect(await Task.detached { slowArrived.wait(timeout: .now() + 60) }.value == .success)
        let fast = try await client.send("GET", "/fast")
        #expect(fast.text == "fast")
        #expect(try await slow.status == 200)
        #expect(clock.now - start >= .milliseconds(150))
    }

    @Test func servesEightKeepAliveClientsConcurrently() async throws {
        let listener = try HTTPListener(handler: Self.echo)
        defer { listener.stop() }
        let statuses = try await withThrowingTaskGroup(of: [Int].self) { group in
            for client in 0..<8 {
                group.addTask {
                    let session = HTTPTestClient(port: listener.port)
                    var statuses: [Int] = []
                    for request in 0..<25 {
                        statuses.append(try await session.send("GET", "/c\(client)?r=\(request)").status)
                    }
                    return statuses
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(statuses == Array(repeating: 200, count: 200))
    }

    @Test func closesTheConnectionWithoutAnAnswerWhenTheHandlerDropsIt() async throws {
        let listener = try HTTPListener { _ in .dropConnection(after: .milliseconds(10)) }
        defer { listener.stop() }
        await #expect(throws: URLError.self) {
            _ = try await HTTPTestClient(port: listener.port).send(
                "POST", "/api/now/table/incident", body: Data("{}".utf8))
        }
    }

    @Test func reportsAPortInUseWithTheAddressAndTheReason() throws {
        let first = try HTTPListener(handler: Self.echo)
        defer { first.stop() }
        let error = #expect(throws: HTTPListenerError.self) { try HTTPListener(port: first.port, handler: Self.echo) }
        #expect(error?.description == "cannot listen on 127.0.0.1:\(first.port): Address already in use")
    }

    @Test func refusesAHostThatIsNotAnIPv4Address() {
        let error = #expect(throws: HTTPListenerError.self) {
            try HTTPListener(host: "example.invalid", handler: Self.echo)
        }
        #expect(error?.description == "cannot listen on example.invalid:0: not an IPv4 address (such as 127.0.0.1)")
    }

    @Test func stopAnswersTheRequestInProgressThenRefusesConnections() async throws {
        let arrived = DispatchSemaphore(value: 0)
        let listener = try HTTPListener { _ in
            arrived.signal()
            return .respond(NowHTTPResponse(statusCode: 201, body: Data("done".utf8)), after: .milliseconds(100))
        }
        let client = HTTPTestClient(port: listener.port)
        async let inProgress = client.send("POST", "/api/now/table/incident", body: Data("{}".utf8))
        #expect(await Task.detached { arrived.wait(timeout: .now() + 60) }.value == .success)
        listener.stop()
        listener.stop()
        #expect(try await inProgress.text == "done")
        await #expect(throws: URLError.self) { _ = try await HTTPTestClient(port: listener.port).send("GET", "/") }
    }
}
