import Foundation
import NowData
import Synchronization
import Testing

@Suite struct NowAuthenticationTests {
    let empty = #"{"result":[]}"#

    @Test func basicSendsTheCredentialsOnEveryRequest() async throws {
        let transport = RecordingTransport(body: empty)
        let service = makeService(transport, authentication: .basic(user: "admin", password: "s3cret"))
        _ = try await service.records(from: "incident")
        #expect(transport.recorded.first?.headers["Authorization"] == "Basic YWRtaW46czNjcmV0")
    }

    @Test func bearerAsksTheProviderAndReportsItsFailure() async throws {
        struct Provider: AccessTokenProvider {
            let token: String?
            func accessToken() async throws -> String {
                guard let token else { throw AccessTokenProviderError.accessTokenRetrievalFailed }
                return token
            }
        }
        let transport = RecordingTransport(body: empty)
        _ = try await makeService(transport, authentication: .bearer(Provider(token: "tok"))).records(from: "incident")
        #expect(transport.recorded.first?.headers["Authorization"] == "Bearer tok")

        await #expect {
            _ = try await makeService(transport, authentication: .bearer(Provider(token: nil))).records(
                from: "incident")
        } throws: { error in
            if case NowDataError.accessToken(.accessTokenRetrievalFailed) = error { true } else { false }
        }
        #expect(transport.recorded.count == 1)
    }

    @Test func oauthUsesThePasswordGrantOnceAndReauthenticatesAfterA401() async throws {
        let issued = Mutex(0)
        let transport = RecordingTransport { [empty] request, _ in
            if request.path == "/oauth_token.do" {
                let number = issued.withLock { count in
                    count += 1
                    return count
                }
                return json(
                    200,
                    #"{"access_token":"token\#(number)","refresh_token":"refresh\#(number)","token_type":"Bearer","expires_in":1799}"#
                )
            }
            return request.headers["Authorization"] == "Bearer token1" && issued.withLock({ $0 }) == 1
                && request.queryValue("sysparm_limit") == "2"
                ? json(401, #"{"error":{"message":"User Not Authenticated"},"status":"failure"}"#) : json(200, empty)
        }
        let service = makeService(
            transport,
            authentication: .oauth(clientID: "client", clientSecret: "shh", user: "admin", password: "s3cret"))

        _ = try await service.records(from: "incident")
        _ = try await service.records(from: "incident")
        _ = try await service.records(from: "incident", configuration: FetchConfiguration(limit: 2))

        #expect(
            transport.rendered == [
                "POST /oauth_token.do\nclient_id=client&client_secret=shh&grant_type=password&password=s3cret&username=admin",
                "GET /api/now/table/incident",
                "GET /api/now/table/incident",
                "GET /api/now/table/incident?sysparm_limit=2",
                "POST /oauth_token.do\nclient_id=client&client_secret=shh&grant_type=refresh_token&refresh_token=refresh1",
                "GET /api/now/table/incident?sysparm_limit=2",
            ])
        #expect(
            transport.recorded.map { $0.headers["Authorization"] } == [
                nil, "Bearer token1", "Bearer token1", "Bearer token1", nil, "Bearer token2",
            ])
        #expect(transport.recorded[0].headers["Content-Type"] == "application/x-www-form-urlencoded")
    }

    /// The token response's `expires_in` may be a number or a string; without a usable one the token lasts 30
    /// minutes; without an `access_token` no token is obtained.
    @Test func oauthReadsTheTokenResponse() async throws {
        func tokenRequests(answering body: String) async throws -> Int {
            let transport = RecordingTransport { [empty] request, _ in
                request.path == "/oauth_token.do" ? json(200, body) : json(200, empty)
            }
            let service = makeService(
                transport, authentication: .oauth(clientID: "c", clientSecret: "s", user: "u", password: "p"))
            _ = try await service.records(from: "incident")
            _ = try await service.records(from: "incident")
            return transport.recorded.filter { $0.path == "/oauth_token.do" }.count
        }
        #expect(try await tokenRequests(answering: #"{"access_token":"t","expires_in":"0"}"#) == 2)
        #expect(try await tokenRequests(answering: #"{"access_token":"t","expires_in":0}"#) == 2)
        #expect(try await tokenRequests(answering: #"{"access_token":"t","expires_in":"soon"}"#) == 1)
        #expect(try await tokenRequests(answering: #"{"access_token":"t","expires_in":1799.5}"#) == 1)
        for body in [#"{"access_token":""}"#, #"{"access_token":42}"#, #"{"token_type":"Bearer"}"#, "<html>"] {
            let error = await #expect(throws: NowDataError.self) { _ = try await tokenRequests(answering: body) }
            #expect(error?.description == "access token error: no access token could be obtained")
        }
    }

    @Test func oauthRefusedCredentialsAreAnAccessTokenError() async throws {
        let transport = RecordingTransport { _, _ in
            json(401, #"{"error":"access_denied","error_description":"access_denied"}"#)
        }
        let service = makeService(
            transport, authentication: .oauth(clientID: "client", clientSecret: "shh", user: "admin", password: "wrong")
        )

        let error = await #expect(throws: NowDataError.self) { _ = try await service.records(from: "incident") }
        #expect(
            error?.description
                == "access token error: no access token could be obtained: bad response 401 from POST /oauth_token.do: access_denied (access_denied)"
        )
        #expect(transport.recorded.count == 1)
    }

    @Test func descriptionsNeverShowSecrets() {
        let basic = NowAuthentication.basic(user: "admin", password: "s3cret")
        let oauth = NowAuthentication.oauth(clientID: "client", clientSecret: "shh", user: "admin", password: "s3cret")
        let configuration = NowServiceConfiguration(
            instanceURL: URL(string: "https://admin:s3cret@example.service-now.com")!, authentication: oauth)
        var dumped = ""
        dump(configuration, to: &dumped)

        #expect("\(basic)" == "basic(user: admin, password: <redacted>)")
        #expect(
            String(reflecting: oauth)
                == "oauth(clientID: client, clientSecret: <redacted>, user: admin, password: <redacted>)")
        #expect(
            "\(configuration)"
                == "NowServiceConfiguration(instanceURL: https://example.service-now.com, authentication: oauth(clientID: client, clientSecret: <redacted>, user: admin, password: <redacted>))"
        )
        for text in ["\(basic)", "\(oauth)", "\(configuration)", dumped] {
            #expect(!text.contains("s3cret"))
            #expect(!text.contains("shh"))
        }
    }

    /// A service and its paginator hold the credentials (and, with OAuth, the tokens) deep inside; `dump` of
    /// either, and `String(reflecting:)`, show none of them, whatever the URL carries.
    @Test(arguments: [
        NowAuthentication.basic(user: "admin", password: "s3cret"),
        .oauth(clientID: "client", clientSecret: "shh", user: "admin", password: "s3cret"),
    ])
    func servicesNeverShowSecrets(authentication: NowAuthentication) async throws {
        let transport = RecordingTransport { request, _ in
            request.path == "/oauth_token.do"
                ? json(200, #"{"access_token":"tok3n","refresh_token":"refr3sh","expires_in":1800}"#)
                : json(200, #"{"result":[]}"#)
        }
        let service = NowTableService(
            configuration: NowServiceConfiguration(
                instanceURL: URL(string: "https://admin:s3cret@example.service-now.com")!,
                authentication: authentication, transport: transport))
        let paginator = service.paginator(from: "incident")
        _ = try await paginator.first()
        let urlSessionService = NowTableService(
            configuration: NowServiceConfiguration(
                instanceURL: URL(string: "https://admin:s3cret@example.service-now.com")!,
                authentication: authentication))
        var dumped = ""
        dump(service, to: &dumped)
        dump(paginator, to: &dumped)
        dump(urlSessionService, to: &dumped)
        let texts = [dumped, String(reflecting: service), String(reflecting: paginator)]

        for text in texts {
            #expect(!text.contains("s3cret"))
            #expect(!text.contains("shh"))
            #expect(!text.contains("tok3n"))
            #expect(!text.contains("refr3sh"))
        }
    }

    @Test func theSDKSetupExampleWorks() async throws {
        NowSDK.reset()
        #expect(NowSDK.core() == nil)
        let transport = RecordingTransport(body: #"{"result":[]}"#)
        NowSDK.configure(authentication: .basic(user: "admin", password: "s3cret"), transport: transport)
        defer { NowSDK.reset() }

        guard let coreService = NowSDK.core() else {
            Issue.record("NowServiceError.sdkNotConfigured")
            return
        }
        #expect(NowSDK.makeServiceConfiguration(for: URL(string: "sample.service-now.com")!) == nil)
        #expect(NowSDK.makeServiceConfiguration(for: URL(string: "http://sample.service-now.com")!) == nil)
        guard let instanceUrl = URL(string: "https://sample.service-now.com"),
            let serviceConfig = NowSDK.makeServiceConfiguration(for: instanceUrl)
        else {
            Issue.record("NowServiceError.serviceConfigurationInvalid")
            return
        }
        let tableService = NowTableService(configuration: serviceConfig, coreServiceProvider: coreService)
        _ = try await tableService.records(from: "incident")
        #expect(transport.recorded.first?.headers["Authorization"] == "Basic YWRtaW46czNjcmV0")

        try await setUpAsDocumented(secret: "s3cret")
        try await attachmentServiceAsDocumented()
    }

    /// docs/sdk.md's attachment service example, verbatim, against a local instance in process.
    private func attachmentServiceAsDocumented() async throws {
        let instance = try makeLocalInstance()
        let incident = try await makeService(on: instance).createRecord(
            with: ["short_description": "has notes"], in: "incident")
        let incidentSysId = try #require(incident.convertToRecord().sysId)
        NowSDK.configure(authentication: .basic(user: "admin", password: "admin"), transport: instance.transport)

        guard let coreService = NowSDK.core() else { throw NowServiceError.sdkNotConfigured }
        guard let instanceUrl = URL(string: "https://example.service-now.com"),
              let serviceConfig = NowSDK.makeServiceConfiguration(for: instanceUrl) else {
            throw NowServiceError.serviceConfigurationInvalid
        }
        let attachmentService = NowAttachmentService(configuration: serviceConfig, coreServiceProvider: coreService)

        let config = NowAttachmentUploadConfiguration(tableName: "incident", recordSysId: incidentSysId,
                                                      fileName: "notes.txt", contentType: "text/plain",
                                                      encryptionContext: nil)
        let metadata = try await attachmentService.upload(data: Data("hello".utf8), configuration: config) { _, _, _ in }
        let attachment = try await attachmentService.attachment(for: metadata.sysId)   // validated: SHA-256 = metadata.hash
        let all = try await attachmentService.attachmentMetadata(
            filter: Filter(query: "table_name=incident^table_sys_id=\(incidentSysId)"), limit: 50)
        try await attachmentService.delete(sysId: metadata.sysId)

        #expect(attachment.data == Data("hello".utf8))
        #expect(all == [metadata])
        #expect(try await attachmentService.attachmentMetadata(filter: nil, limit: nil).isEmpty)
    }

    /// docs/sdk.md's setup example, verbatim, then what it made.
    private func setUpAsDocumented(secret: String) async throws {
        NowSDK.configure(authentication: .basic(user: "admin", password: secret))

        guard let coreService = NowSDK.core() else { throw NowServiceError.sdkNotConfigured }
        guard let instanceUrl = URL(string: "https://sample.service-now.com"),
              let serviceConfig = NowSDK.makeServiceConfiguration(for: instanceUrl) else {
            throw NowServiceError.serviceConfigurationInvalid
        }
        let tableService = NowTableService(configuration: serviceConfig, coreServiceProvider: coreService)

        #expect(tableService.configuration.instanceURL == instanceUrl)
        #expect("\(tableService.configuration.authentication)" == "basic(user: admin, password: <redacted>)")
        #expect(tableService.configuration.transport == nil)
    }
}
