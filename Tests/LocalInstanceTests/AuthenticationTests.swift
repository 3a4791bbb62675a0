import Foundation
import NowData
import Testing

@testable import LocalInstance

@Suite struct AuthenticationTests {
    let harness: Harness
    static let unauthenticated =
        #"{"error":{"message":"User Not Authenticated","detail":"Required to provide Auth information"},"status":"failure"}"#
    static let accessDenied = #"{"error_description":"access_denied","error":"server_error"}"#

    init() throws {
        harness = try Harness(seed: false) { $0.tokenLifetime = .seconds(60) }
    }

    private func token(_ form: String) async throws -> NowHTTPResponse {
        try await harness.send(
            "POST", "/oauth_token.do", body: form, headers: [("Content-Type", "application/x-www-form-urlencoded")])
    }

    @Test(arguments: [
        [],
        [("Authorization", "Basic " + Data("admin:wrong".utf8).base64EncodedString())],
        [("Authorization", "Basic " + Data("nobody:secret".utf8).base64EncodedString())],
        [("Authorization", "Basic !!!")],
        [("Authorization", "Bearer not-a-token")],
    ])
    func requestsWithoutValidCredentialsGet401(headers: [(String, String)]) async throws {
        let read = try await harness.send("GET", "/api/now/table/incident", headers: headers)
        #expect(read.statusCode == 401)
        // The platform challenges with the scheme that was refused.
        let scheme = headers.first?.1.hasPrefix("Bearer") == true ? "BEARER" : "BASIC"
        #expect(read.headers["WWW-Authenticate"] == "\(scheme) realm=\"Service-now\"")
        #expect(Harness.text(read) == Self.unauthenticated)
        let write = try await harness.send(
            "POST", "/api/now/table/incident", body: "{}", headers: headers + [("Content-Type", "application/json")])
        #expect(write.statusCode == 401)
        let count = try harness.instance.database.read { db in
            try harness.instance.store.count(TableDictionary.incident, where: "", [], db)
        }
        #expect(count == 0)
    }

    @Test func aVerifiedCertificateFingerprintLogsInAsItsActiveRecordsUserButNoClientCanClaimOne() async throws {
        let admin = try Harness.results(
            try await harness.send("GET", "/api/now/table/sys_user", query: [("sysparm_query", "user_name=admin")]))
        let adminID = try #require(admin.first?["sys_id"] as? String)
        for (name, fingerprint, active) in [("current", "AB:CD:01", true), ("retired", "ab:cd:02", false)] {
            let created = try await harness.send(
                "POST", "/api/now/table/sys_user_certificate",
                body: #"{"name":"\#(name)","fingerprint":"\#(fingerprint)","user":"\#(adminID)","active":\#(active)}"#)
            #expect(created.statusCode == 201)
        }
        // What the TLS listener passes on for a certificate its client CAs verified.
        func reply(_ fingerprint: String, authorization: String? = nil) -> NowHTTPResponse? {
            var headers: HTTPHeaders = [HTTPListener.clientCertificateHeader: fingerprint]
            if let authorization { headers["Authorization"] = authorization }
            let request = NowHTTPRequest(
                method: "GET", path: "/api/now/table/sys_user_certificate",
                queryItems: [URLQueryItem(name: "sysparm_fields", value: "name")], headers: headers)
            guard case .respond(let response, _) = harness.instance.reply(to: request) else { return nil }
            return response
        }
        let records = #"{"result":[{"name":"current"},{"name":"retired"}]}"#
        #expect(reply("abcd01").map(Harness.text) == records)
        for refused in ["abcd02", "abcd03", ""] {
            #expect(reply(refused)?.statusCode == 401, "\(refused)")
        }
        // A mapped certificate wins over the headers beside it: servicenow.itsm sends Basic for the user `None`
        // with its certificate. An unmapped one leaves the headers to decide.
        let noneUser = "Basic " + Data("None:".utf8).base64EncodedString()
        #expect(reply("abcd01", authorization: noneUser).map(Harness.text) == records)
        #expect(reply("abcd03", authorization: noneUser)?.statusCode == 401)
        // A client of the in-process transport cannot claim a certificate.
        let claimed = try await harness.send(
            "GET", "/api/now/table/incident", headers: [(HTTPListener.clientCertificateHeader, "abcd01")])
        #expect(claimed.statusCode == 401)
        #expect(Harness.text(claimed) == Self.unauthenticated)
        // Nor can a batch item: in a batch authenticated by another user's API key, an item that claims the
        // certificate is not its user's (the key is not passed on to items, so the item has no credentials).
        let joe = try Harness.result(
            try await harness.send(
                "POST", "/api/now/table/sys_user", body: #"{"user_name":"joe","user_password":"joe-Pa55word"}"#))
        let joeID = try #require(joe["sys_id"] as? String)
        let key = try await harness.send(
            "POST", "/api/now/table/sys_api_key", body: #"{"name":"joe's","token":"joe-key-1","user":"\#(joeID)"}"#)
        #expect(key.statusCode == 201)
        let item =
            #"{"id":"1","method":"GET","url":"/api/now/table/sys_user_certificate?sysparm_fields=name","headers":"#
            + #"[{"name":"\#(HTTPListener.clientCertificateHeader)","value":"abcd01"}]}"#
        let batch = NowHTTPRequest(
            method: "POST", path: "/api/now/v1/batch",
            headers: ["x-sn-apikey": "joe-key-1", "Content-Type": "application/json"],
            body: Data(#"{"rest_requests":["#.utf8) + Data(item.utf8) + Data("]}".utf8))
        guard case .respond(let answer, _) = harness.instance.reply(to: batch) else {
            Issue.record("the batch was not answered")
            return
        }
        #expect(answer.statusCode == 200)
        let serviced = try Harness.json(answer)["serviced_requests"] as? [[String: Any]]
        #expect(serviced?.first?["status_code"] as? Int == 401)
        let body = (serviced?.first?["body"] as? String).flatMap { Data(base64Encoded: $0) } ?? Data()
        #expect(String(decoding: body, as: UTF8.self) == Self.unauthenticated)
    }

    @Test func unauthenticatedRequestToUnknownTableStillGets401() async throws {
        let response = try await harness.send("GET", "/api/now/table/u_secret", headers: [])
        #expect(response.statusCode == 401)
    }

    @Test func passwordGrantGivesBearerTokenThatExpires() async throws {
        let response = try await token(
            "grant_type=password&client_id=cli&client_secret=s&username=admin&password=secret")
        #expect(response.statusCode == 200)
        let body = try Harness.json(response)
        #expect(body["token_type"] as? String == "Bearer")
        #expect(body["scope"] as? String == "useraccount")
        #expect(body["expires_in"] as? Int == 60)
        let access = try #require(body["access_token"] as? String)
        #expect(body["refresh_token"] is String)
        let bearer = [("Authorization", "Bearer \(access)")]
        #expect(try await harness.send("GET", "/api/now/table/incident", headers: bearer).statusCode == 200)
        harness.clock.advance(seconds: 61)
        let expired = try await harness.send("GET", "/api/now/table/incident", headers: bearer)
        #expect(expired.statusCode == 401)
        #expect(expired.headers["WWW-Authenticate"] == #"BEARER realm="Service-now""#)
        #expect(Harness.text(expired) == Self.unauthenticated)
    }

    @Test func refreshGrantGivesANewAccessTokenOnly() async throws {
        let first = try Harness.json(
            try await token("grant_type=password&client_id=cli&client_secret=s&username=admin&password=secret"))
        let refresh = try #require(first["refresh_token"] as? String)
        harness.clock.advance(seconds: 120)
        let response = try await token(
            "grant_type=refresh_token&client_id=cli&client_secret=s&refresh_token=\(refresh)")
        #expect(response.statusCode == 200)
        let body = try Harness.json(response)
        #expect(body["refresh_token"] == nil)
        let access = try #require(body["access_token"] as? String)
        let read = try await harness.send(
            "GET", "/api/now/table/sys_user", headers: [("Authorization", "Bearer \(access)")])
        #expect(read.statusCode == 200)
        let reused = try await token("grant_type=refresh_token&client_id=cli&client_secret=s&refresh_token=bogus")
        #expect(reused.statusCode == 401)
        #expect(Harness.text(reused) == Self.accessDenied)
    }

    @Test func tokenEndpointRefusesBadCredentialsJSONAndUnknownGrants() async throws {
        for form in [
            "grant_type=password&client_id=cli&client_secret=s&username=admin&password=nope",
            "grant_type=client_credentials&client_id=cli&client_secret=s", "",
        ] {
            let response = try await token(form)
            #expect(response.statusCode == 401)
            #expect(Harness.text(response) == Self.accessDenied)
        }
        let json = try await harness.send(
            "POST", "/oauth_token.do",
            body: #"{"grant_type":"password","username":"admin","password":"secret"}"#,
            headers: [("Content-Type", "application/json")])
        #expect(json.statusCode == 401)
    }

    @Test func configuredClientsAreChecked() async throws {
        let strict = try Harness(seed: false) { $0.oauthClients = ["nowflow": "s3cret"] }
        let wrong = try await strict.send(
            "POST", "/oauth_token.do",
            body: "grant_type=password&client_id=nowflow&client_secret=x&username=admin&password=secret",
            headers: [("Content-Type", "application/x-www-form-urlencoded")])
        #expect(wrong.statusCode == 401)
        let right = try await strict.send(
            "POST", "/oauth_token.do",
            body: "grant_type=password&client_id=nowflow&client_secret=s3cret&username=admin&password=secret",
            headers: [("Content-Type", "application/x-www-form-urlencoded")])
        #expect(right.statusCode == 200)
    }

    @Test func inactiveUsersCannotSignIn() async throws {
        let created = try await harness.send(
            "POST", "/api/now/table/sys_user", body: #"{"user_name":"gone","user_password":"pw","active":"false"}"#)
        #expect(created.statusCode == 201)
        let auth = "Basic " + Data("gone:pw".utf8).base64EncodedString()
        let response = try await harness.send("GET", "/api/now/table/incident", headers: [("Authorization", auth)])
        #expect(response.statusCode == 401)
    }

    @Test func changingAPasswordRevokesTheOldOne() async throws {
        #expect(try await harness.send("GET", "/api/now/table/incident").statusCode == 200)
        let admin = DemoData.sysID("sys_user", "admin")
        let changed = try await harness.send(
            "PATCH", "/api/now/table/sys_user/\(admin)", body: #"{"user_password":"n3w"}"#)
        #expect(changed.statusCode == 200)
        #expect(try await harness.send("GET", "/api/now/table/incident").statusCode == 401)
        let auth = "Basic " + Data("admin:n3w".utf8).base64EncodedString()
        let fresh = try await harness.send("GET", "/api/now/table/incident", headers: [("Authorization", auth)])
        #expect(fresh.statusCode == 200)
    }
}
