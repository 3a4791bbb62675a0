import Foundation
import LocalInstance
import NowData
import Testing

/// The service over real HTTP to the local instance's listener, through each HTTP transport.
@Suite struct NowTableServiceHTTPTests {
    static func serve(tokenLifetime: Duration = .seconds(1799), seedDemoData: Bool = false) throws
        -> LocalInstanceServer
    {
        try LocalInstanceServer(
            options: LocalInstance.Options(seedDemoData: seedDemoData, tokenLifetime: tokenLifetime, log: { _ in }))
    }

    static func service(
        _ server: LocalInstanceServer, _ client: HTTPClient,
        authentication: NowAuthentication = .basic(user: "admin", password: "admin"), timeout: Duration = .seconds(10),
        retryPolicy: RetryPolicy = RetryPolicy(
            maxAttempts: 4, baseDelay: .milliseconds(5), maxDelay: .milliseconds(20), totalBudget: .seconds(3600))
    ) -> NowTableService {
        let url = URL(string: server.url)!
        return NowTableService(
            configuration: NowServiceConfiguration(
                instanceURL: url, authentication: authentication,
                transport: client.transport(to: url, timeout: timeout), timeout: timeout, retryPolicy: retryPolicy))
    }

    @Test(arguments: HTTPClient.allCases)
    func everyOperationOverHTTP(_ client: HTTPClient) async throws {
        let server = try Self.serve()
        defer { server.stop() }
        let service = Self.service(server, client)

        let created = try await service.create(TicketModel(shortDescription: "over http"), in: "incident")
        var changed = try await service.model(TicketModel.self, with: created.sysId, from: "incident")
        changed.urgency = "1"
        #expect(try await service.update(changed, in: "incident").urgency == "1")
        let raw = try await service.createRecord(with: ["short_description": "a+b & c=d"], in: "incident")
        let rawID = try #require(raw.convertToRecord().sysId)
        _ = try await service.updateRecord(sysId: rawID, in: "incident", with: ["urgency": 3])
        #expect(try await service.record(with: rawID, from: "incident").convertToRecord()["urgency"] == "3")
        let found = try await service.records(
            from: "incident", configuration: FetchConfiguration(filter: Filter(query: "short_description=a+b & c=d")))
        #expect(found.convertToRecords().map(\.sysId) == [rawID])
        try await service.delete(created, from: "incident")
        try await service.deleteRecord(sysId: rawID, from: "incident")
        #expect(try await service.model([TicketModel].self, from: "incident").isEmpty)
    }

    @Test(arguments: HTTPClient.allCases)
    func aWrongPasswordFailsFastWith401(_ client: HTTPClient) async throws {
        let server = try Self.serve()
        defer { server.stop() }
        let service = Self.service(
            server, client, authentication: .basic(user: "admin", password: "wrong"), timeout: .seconds(30))

        let error = await #expect(throws: NowDataError.self) { _ = try await service.records(from: "incident") }
        // URLSession drops the body of a 401 that carries `WWW-Authenticate` (its challenge is declined).
        let message =
            switch client {
            case .curl: "User Not Authenticated (Required to provide Auth information)"
            case .urlSession: "the instance did not accept the credentials (its error message was not received)"
            }
        #expect(error?.description == "bad response 401 from GET /api/now/table/incident: \(message)")
    }

    @Test(arguments: HTTPClient.allCases)
    func oauthPasswordGrantRefreshAndExpiredToken(_ client: HTTPClient) async throws {
        // Fifteen seconds: a token must outlive the wait between its grant and its use, which a loaded machine
        // holding the test's task can stretch past a second or two.
        let server = try Self.serve(tokenLifetime: .seconds(15))
        defer { server.stop() }
        let service = Self.service(
            server, client, authentication: .oauth(clientID: "app", clientSecret: "secret", user: "admin", password: "admin"))

        _ = try await service.create(TicketModel(shortDescription: "token one"), in: "incident")
        try await Task.sleep(for: .milliseconds(15_100))
        _ = try await service.create(TicketModel(shortDescription: "token two"), in: "incident")
        #expect(try await service.model([TicketModel].self, from: "incident").count == 2)
    }

    @Test(arguments: HTTPClient.allCases)
    func aWrongOAuthPasswordSaysWhatTheTokenEndpointAnswered(_ client: HTTPClient) async throws {
        let server = try Self.serve()
        defer { server.stop() }
        let service = Self.service(
            server, client, authentication: .oauth(clientID: "app", clientSecret: "secret", user: "admin", password: "wrong"))

        let error = await #expect(throws: NowDataError.self) { _ = try await service.records(from: "incident") }
        #expect(
            error?.description
                == "access token error: no access token could be obtained: bad response 401 from POST /oauth_token.do: server_error (access_denied)"
        )
    }

    @Test(arguments: HTTPClient.allCases)
    func passingFailuresAreRetried(_ client: HTTPClient) async throws {
        let server = try Self.serve()
        defer { server.stop() }
        let service = Self.service(server, client)

        server.instance.setFaults(FaultInjection(scripted: [.status(429, retryAfterSeconds: 1)]))
        _ = try await service.records(from: "incident")
        server.instance.setFaults(FaultInjection(scripted: [.status(503, retryAfterSeconds: nil), .drop]))
        _ = try await service.records(from: "incident")
        server.instance.setFaults(FaultInjection(scripted: [.lostResponse]))
        _ = try await service.create(TicketModel(shortDescription: "lost over http"), in: "incident")
        #expect(try await countIncidents("lost over http", through: service) == 1)
        server.instance.setFaults(FaultInjection(scripted: [.drop, .lostResponse]))
        _ = try await service.createRecord(with: ["short_description": "dropped over http"], in: "incident")
        #expect(try await countIncidents("dropped over http", through: service) == 1)
    }

    @Test(arguments: HTTPClient.allCases)
    func aDeleteWhoseResponseIsLostOnAKeptAliveConnectionSucceeds(_ client: HTTPClient) async throws {
        let server = try Self.serve()
        defer { server.stop() }
        let service = Self.service(server, client)
        let created = try await service.create(TicketModel(shortDescription: "lost delete"), in: "incident")
        _ = try await service.record(with: created.sysId, from: "incident")  // leaves a kept-alive connection

        server.instance.setFaults(FaultInjection(scripted: [.lostResponse]))
        try await service.delete(created, from: "incident")

        #expect(try await countIncidents("lost delete", through: service) == 0)
    }

    @Test(arguments: HTTPClient.allCases)
    func anUpdateWhoseResponseIsLostOnAKeptAliveConnectionSucceeds(_ client: HTTPClient) async throws {
        let server = try Self.serve()
        defer { server.stop() }
        let service = Self.service(server, client)
        var created = try await service.create(TicketModel(shortDescription: "lost update"), in: "incident")
        _ = try await service.record(with: created.sysId, from: "incident")  // leaves a kept-alive connection

        server.instance.setFaults(FaultInjection(scripted: [.lostResponse]))
        created.urgency = "1"
        #expect(try await service.update(created, in: "incident").urgency == "1")

        #expect(try await service.model(TicketModel.self, with: created.sysId, from: "incident").urgency == "1")
        #expect(try await countIncidents("lost update", through: service) == 1)
    }

    @Test(arguments: HTTPClient.allCases)
    func aDroppedConnectionSaysItClosedWithoutAResponse(_ client: HTTPClient) async throws {
        let server = try Self.serve()
        defer { server.stop() }
        let service = Self.service(server, client, retryPolicy: .none)
        server.instance.setFaults(FaultInjection(scripted: [.drop]))

        let error = await #expect(throws: NowDataError.self) { _ = try await service.records(from: "incident") }
        #expect(
            error?.description
                == "network error: system error: the connection to 127.0.0.1:\(URL(string: server.url)?.port ?? 0) closed without a valid HTTP response")
    }

    /// A refused connection names the host and port and says it was refused (the port of a server just stopped);
    /// URLSession does not tell why it could not connect.
    @Test(arguments: HTTPClient.allCases)
    func aRefusedConnectionNamesTheHostAndPort(_ client: HTTPClient) async throws {
        let server = try Self.serve()
        server.stop()
        let service = Self.service(server, client, retryPolicy: .none)

        let error = await #expect(throws: NowDataError.self) { _ = try await service.records(from: "incident") }
        let place = "127.0.0.1:\(URL(string: server.url)?.port ?? 0)"
        #expect(
            error?.description
                == (client == .urlSession
                    ? "network error: system error: could not connect to \(place)"
                    : "network error: system error: connection refused at \(place)"))
    }

    /// The task is cancelled once its request is at the instance, which holds its answer until the test ends (not
    /// for a time a loaded machine might outlast before the cancel).
    @Test(arguments: HTTPClient.allCases)
    func cancellingTheTaskCancelsTheRequest(_ client: HTTPClient) async throws {
        let instance = try LocalInstance(options: LocalInstance.Options(seedDemoData: false, log: { _ in }))
        let arrived = DispatchSemaphore(value: 0)
        let released = DispatchSemaphore(value: 0)
        let listener = try HTTPListener { request in
            arrived.signal()
            released.wait()
            return instance.reply(to: request)
        }
        defer {
            released.signal()
            listener.stop()
            instance.close()
        }
        let url = URL(string: "http://127.0.0.1:\(listener.port)")!
        let service = NowTableService(
            configuration: NowServiceConfiguration(
                instanceURL: url, authentication: .basic(user: "admin", password: "admin"),
                transport: client.transport(to: url, timeout: .seconds(120)), timeout: .seconds(120)))
        let task = Task { try await service.records(from: "incident") }
        #expect(await Task.detached { arrived.wait(timeout: .now() + 60) }.value == .success)
        task.cancel()
        await #expect { _ = try await task.value } throws: { error in
            if case NowDataError.network(.operationCancelled) = error { true } else { false }
        }
    }

    /// The answer is a minute away, so that the 200 ms timeout comes first however late the client's timer fires.
    @Test(arguments: HTTPClient.allCases)
    func aTimeoutIsASystemError(_ client: HTTPClient) async throws {
        let server = try Self.serve()
        defer { server.stop() }
        let service = Self.service(server, client, timeout: .milliseconds(200), retryPolicy: .none)
        server.instance.setFaults(FaultInjection(scripted: [.latency(.seconds(60))]))

        await #expect { _ = try await service.records(from: "incident") } throws: { error in
            if case NowDataError.network(.systemError(let underlying as URLError)) = error {
                underlying.code == .timedOut
            } else {
                false
            }
        }
    }

    @Test func plainHTTPToAnotherHostIsRefusedBeforeAnyConnection() async throws {
        let service = NowTableService(
            configuration: NowServiceConfiguration(instanceURL: URL(string: "http://example.invalid")!))
        await #expect { _ = try await service.records(from: "incident") } throws: { isInvalidURL($0) }
    }

    @Test(arguments: HTTPClient.allCases)
    func aPaginatorWalksManyPagesOverHTTP(_ client: HTTPClient) async throws {
        let server = try Self.serve(seedDemoData: true)
        defer { server.stop() }
        let service = Self.service(server, client)
        let paginator: Paginator<[TicketModel]> = service.paginator(
            from: "incident", configuration: FetchConfiguration(filter: Filter(query: "ORDERBYnumber"), limit: 7))

        var seen: [String] = []
        for try await page in paginator { seen += page.map(\.sysId) }

        let total = try await service.model([TicketModel].self, from: "incident").count
        #expect(total > 14)
        #expect(seen.count == total)
        #expect(Set(seen).count == total)
        #expect(paginator.numberOfPages == (total + 6) / 7)
        #expect(paginator.isFinished)
    }
}
