import Foundation
import NowData
import Testing

@testable import LocalInstance

/// OAuth applications (`oauth_entity`) and their grants, and REST API keys (`sys_api_key`), as a PDI offers them.
@Suite struct OAuthClientTests {
    private static let form = [("Content-Type", "application/x-www-form-urlencoded")]

    private func token(_ harness: Harness, _ body: String) async throws -> NowHTTPResponse {
        try await harness.send("POST", "/oauth_token.do", body: body, headers: Self.form)
    }

    private static let denied = #"{"error_description":"access_denied","error":"server_error"}"#

    @Test func clientCredentialsActAsTheApplicationsUser() async throws {
        let harness = try Harness { $0.oauthClients = ["ansible": "s3cret"] }
        let granted = try await token(harness, "grant_type=client_credentials&client_id=ansible&client_secret=s3cret")
        #expect(granted.statusCode == 200)
        let body = try Harness.json(granted)
        #expect(body["refresh_token"] == nil)
        #expect(body["token_type"] as? String == "Bearer")
        let access = try #require(body["access_token"] as? String)
        let created = try await harness.send(
            "POST", "/api/now/table/incident", query: [("sysparm_fields", "sys_created_by")],
            body: #"{"short_description":"from a pipeline"}"#,
            headers: [("Authorization", "Bearer \(access)"), ("Content-Type", "application/json")])
        #expect(Harness.text(created) == #"{"result":{"sys_created_by":"admin"}}"#)
        let entity = try await harness.send(
            "GET", "/api/now/table/oauth_entity",
            query: [("sysparm_fields", "name,client_id,client_secret,active,user.user_name")])
        #expect(
            Harness.text(entity)
                == #"{"result":[{"name":"ansible","client_id":"ansible","client_secret":"********","active":"true","#
                + #""user.user_name":"admin"}]}"#)
    }

    @Test func aWrongSecretOrAnUnknownClientGetsNoToken() async throws {
        let harness = try Harness { $0.oauthClients = ["ansible": "s3cret"] }
        for body in [
            "grant_type=client_credentials&client_id=ansible&client_secret=wrong",
            "grant_type=client_credentials&client_id=other&client_secret=s3cret",
            "grant_type=password&client_id=ansible&client_secret=wrong&username=admin&password=secret",
        ] {
            let refused = try await token(harness, body)
            #expect(refused.statusCode == 401)
            #expect(Harness.text(refused) == Self.denied)
        }
        let right = try await token(
            harness, "grant_type=password&client_id=ansible&client_secret=s3cret&username=admin&password=secret")
        #expect(right.statusCode == 200)
    }

    /// RFC 6749's client_secret_basic, which requests-oauthlib (and so pysnow's OAuthClient) sends: the client in
    /// an `Authorization: Basic` header, the form without `client_id`.
    @Test func theClientMayAuthenticateWithBasicInsteadOfTheForm() async throws {
        let harness = try Harness { $0.oauthClients = ["ansible": "s3cret"] }
        let grant = "grant_type=password&username=admin&password=secret"
        func basic(_ pair: String) -> [(String, String)] {
            Self.form + [("Authorization", "Basic " + Data(pair.utf8).base64EncodedString())]
        }
        let granted = try await harness.send("POST", "/oauth_token.do", body: grant, headers: basic("ansible:s3cret"))
        #expect(granted.statusCode == 200)
        #expect(try Harness.json(granted)["access_token"] is String)
        for pair in ["ansible:wrong", "other:s3cret"] {
            let refused = try await harness.send("POST", "/oauth_token.do", body: grant, headers: basic(pair))
            #expect(refused.statusCode == 401, "\(pair)")
            #expect(Harness.text(refused) == Self.denied)
        }
        // The form's client wins over the header.
        let formFirst = try await harness.send(
            "POST", "/oauth_token.do", body: grant + "&client_id=ansible&client_secret=wrong",
            headers: basic("ansible:s3cret"))
        #expect(formFirst.statusCode == 401)
    }

    @Test func applicationsRegisteredThroughTheTableAPIAreChecked() async throws {
        let harness = try Harness()
        let open = try await token(harness, "grant_type=password&client_id=any&client_secret=x&username=admin&password=secret")
        #expect(open.statusCode == 200)
        let noApplication = try await token(harness, "grant_type=client_credentials&client_id=any&client_secret=x")
        #expect(Harness.text(noApplication) == Self.denied)
        let itil = DemoData.sysID("sys_user", "itil")
        _ = try await harness.send(
            "PATCH", "/api/now/table/sys_user/\(itil)", body: #"{"user_password":"itil-pw"}"#)
        let registered = try await harness.send(
            "POST", "/api/now/table/oauth_entity", query: [("sysparm_fields", "client_secret")],
            body: #"{"name":"CI","client_id":"ci","client_secret":"ci-secret","user":"\#(itil)"}"#)
        #expect(Harness.text(registered) == #"{"result":{"client_secret":"********"}}"#)
        let closed = try await token(harness, "grant_type=password&client_id=any&client_secret=x&username=admin&password=secret")
        #expect(Harness.text(closed) == Self.denied)
        let granted = try await token(harness, "grant_type=client_credentials&client_id=ci&client_secret=ci-secret")
        let access = try #require(try Harness.json(granted)["access_token"] as? String)
        let created = try await harness.send(
            "POST", "/api/now/table/incident", query: [("sysparm_fields", "sys_created_by")], body: "{}",
            headers: [("Authorization", "Bearer \(access)"), ("Content-Type", "application/json")])
        #expect(Harness.text(created) == #"{"result":{"sys_created_by":"itil"}}"#)
    }

    @Test func anAPIKeyActsAsItsUserUntilDeactivated() async throws {
        let harness = try Harness()
        let itil = DemoData.sysID("sys_user", "itil")
        let key = try await harness.send(
            "POST", "/api/now/table/sys_api_key", query: [("sysparm_fields", "sys_id,token,user.user_name")],
            body: #"{"name":"ITIL's key","token":"k3y-0123456789","user":"\#(itil)"}"#)
        let sysID = try #require(try Harness.result(key)["sys_id"] as? String)
        #expect(
            Harness.text(key)
                == #"{"result":{"sys_id":"\#(sysID)","token":"********","user.user_name":"itil"}}"#)
        let created = try await harness.send(
            "POST", "/api/now/table/incident", query: [("sysparm_fields", "sys_created_by")], body: "{}",
            headers: [("x-sn-apikey", "k3y-0123456789"), ("Content-Type", "application/json")])
        #expect(Harness.text(created) == #"{"result":{"sys_created_by":"itil"}}"#)
        let wrong = try await harness.send(
            "GET", "/api/now/table/incident", headers: [("x-sn-apikey", "k3y-wrong")])
        #expect(wrong.statusCode == 401)
        _ = try await harness.send("PATCH", "/api/now/table/sys_api_key/\(sysID)", body: #"{"active":"false"}"#)
        let revoked = try await harness.send(
            "GET", "/api/now/table/incident", headers: [("x-sn-apikey", "k3y-0123456789")])
        #expect(revoked.statusCode == 401)
        #expect(
            Harness.text(revoked)
                == #"{"error":{"message":"User Not Authenticated","detail":"Required to provide Auth information"},"#
                + #""status":"failure"}"#)
    }
}
