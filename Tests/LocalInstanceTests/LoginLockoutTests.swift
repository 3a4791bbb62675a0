import Foundation
import NowData
import TestSupport
import Testing

@testable import LocalInstance

/// Failed logins are counted per user (and OAuth client) and per client address across Basic, OAuth grants, API
/// keys, the login form and batches; past the limit the account or client is locked for a while (401 even with
/// the right password), and each failure and lock is logged without the password.
@Suite struct LoginLockoutTests {
    private static let unauthenticated =
        #"{"error":{"message":"User Not Authenticated","detail":"Required to provide Auth information"},"status":"failure"}"#
    private static let accessDenied = #"{"error_description":"access_denied","error":"server_error"}"#
    private static let form = [("Content-Type", "application/x-www-form-urlencoded")]

    private static func basic(_ user: String, _ password: String) -> [(String, String)] {
        [("Authorization", "Basic " + Data("\(user):\(password)".utf8).base64EncodedString())]
    }

    private static let lockedAdmin =
        "local instance: user 'admin' locked for 300 seconds after 10 failed logins in a row"

    @Test func tenWrongPasswordsLockTheUserFor300SecondsEvenWithTheRightOne() async throws {
        let harness = try Harness(seed: false)
        for _ in 0..<10 {
            let wrong = try await harness.send("GET", "/api/now/table/incident", headers: Self.basic("admin", "guess"))
            #expect(wrong.statusCode == 401)
        }
        let locked = try await harness.send("GET", "/api/now/table/incident")
        #expect(locked.statusCode == 401)
        #expect(Harness.text(locked) == Self.unauthenticated)
        #expect(
            harness.log.all
                == Array(repeating: "local instance: failed login of user 'admin' (Basic) from in process", count: 10)
                + [Self.lockedAdmin])

        harness.clock.advance(seconds: 299)
        #expect(try await harness.send("GET", "/api/now/table/incident").statusCode == 401)
        harness.clock.advance(seconds: 2)
        let unlocked = try await harness.send(
            "GET", "/api/now/table/incident", query: [("sysparm_limit", "1"), ("sysparm_fields", "number")])
        #expect(unlocked.statusCode == 200)
        #expect(Harness.text(unlocked) == #"{"result":[]}"#)
        #expect(!harness.log.all.contains { $0.contains("guess") || $0.contains("secret") })
    }

    @Test func aSuccessStartsTheCountAgain() async throws {
        let harness = try Harness(seed: false)
        for round in 0..<3 {
            for _ in 0..<9 {
                _ = try await harness.send("GET", "/api/now/table/incident", headers: Self.basic("admin", "guess\(round)"))
            }
            #expect(try await harness.send("GET", "/api/now/table/incident").statusCode == 200)
        }
        #expect(!harness.log.all.contains(Self.lockedAdmin))
    }

    @Test func oauthPasswordGrantsCountAndALockedUserGetsNoTokenNorBasic() async throws {
        let harness = try Harness(seed: false)
        for _ in 0..<10 {
            let wrong = try await harness.send(
                "POST", "/oauth_token.do", body: "grant_type=password&username=admin&password=guess",
                headers: Self.form)
            #expect(Harness.text(wrong) == Self.accessDenied)
        }
        let right = try await harness.send(
            "POST", "/oauth_token.do", body: "grant_type=password&username=admin&password=secret", headers: Self.form)
        #expect(right.statusCode == 401)
        #expect(Harness.text(right) == Self.accessDenied)
        let basic = try await harness.send("GET", "/api/now/table/incident")
        #expect(Harness.text(basic) == Self.unauthenticated)
        #expect(
            harness.log.all
                == Array(
                    repeating: "local instance: failed login of user 'admin' (OAuth password grant) from in process",
                    count: 10) + [Self.lockedAdmin])
    }

    @Test func wrongClientSecretsLockTheOAuthClient() async throws {
        let harness = try Harness(seed: false) { $0.oauthClients = ["ansible": "s3cret"] }
        for _ in 0..<10 {
            let wrong = try await harness.send(
                "POST", "/oauth_token.do", body: "grant_type=client_credentials&client_id=ansible&client_secret=x",
                headers: Self.form)
            #expect(Harness.text(wrong) == Self.accessDenied)
        }
        let right = try await harness.send(
            "POST", "/oauth_token.do", body: "grant_type=client_credentials&client_id=ansible&client_secret=s3cret",
            headers: Self.form)
        #expect(right.statusCode == 401)
        #expect(Harness.text(right) == Self.accessDenied)
        #expect(
            harness.log.all.last
                == "local instance: OAuth client 'ansible' locked for 300 seconds after 10 failed logins in a row")
        #expect(!harness.log.all.contains { $0.contains("s3cret") })
    }

    @Test func wrongPasswordsInsideABatchCountAsMuch() async throws {
        let harness = try Harness(seed: false)
        let created = try await harness.send(
            "POST", "/api/now/table/sys_user", body: #"{"user_name":"joe","user_password":"j0e-pw"}"#)
        #expect(created.statusCode == 201)
        let wrongJoe = "Basic " + Data("joe:guess".utf8).base64EncodedString()
        let items = (0..<10).map {
            #"{"id":"\#($0)","method":"GET","url":"/api/now/table/sys_user?sysparm_limit=1","#
                + #""headers":[{"name":"Authorization","value":"\#(wrongJoe)"}]}"#
        }
        let batch = try await harness.send(
            "POST", "/api/now/v1/batch", body: #"{"batch_request_id":"1","rest_requests":[\#(items.joined(separator: ","))]}"#)
        #expect(batch.statusCode == 200)
        let codes = try #require(try Harness.json(batch)["serviced_requests"] as? [[String: Any]]).map {
            $0["status_code"] as? Int
        }
        #expect(codes == Array(repeating: 401, count: 10))
        let locked = try await harness.send("GET", "/api/now/table/sys_user", headers: Self.basic("joe", "j0e-pw"))
        #expect(Harness.text(locked) == Self.unauthenticated)
        #expect(
            harness.log.all.last == "local instance: user 'joe' locked for 300 seconds after 10 failed logins in a row")
    }

    @Test func overHTTPAClientSprayingManyUsersIsLockedByItsAddress() async throws {
        let served = try ServedInstance()
        defer { served.listener.stop() }
        for user in 0..<10 {
            for _ in 0..<4 {
                let wrong = try await served.send(
                    "GET", "/api/now/table/incident", headers: Self.basic("user\(user)", "guess"))
                #expect(wrong.status == 401)
            }
        }
        for _ in 0..<10 {
            let wrong = try await served.send(
                "GET", "/api/now/table/incident", headers: [("Authorization", "none"), ("x-sn-apikey", "guess")])
            #expect(wrong.status == 401)
        }
        // No user reached ten, but the client reached fifty: even the admin's right password is refused from it.
        let locked = try await served.send("GET", "/api/now/table/incident")
        #expect(locked.status == 401)
        #expect(locked.body == Self.unauthenticated)
        let log = served.harness.log.all
        #expect(log.first == "local instance: failed login of user 'user0' (Basic) from 127.0.0.1")
        #expect(log.contains("local instance: failed login (API key) from 127.0.0.1"))
        #expect(log.last == "local instance: client 127.0.0.1 locked for 300 seconds after 50 failed logins")
        #expect(log.count == 51)
        // In process (no client address) the admin still gets in.
        #expect(try await served.harness.send("GET", "/api/now/table/incident").statusCode == 200)
    }

    @Test func theLoginFormCountsAndALockedUserSeesTheSameRefusal() throws {
        let lines = LogLines()
        let server = try LocalInstanceServer(
            options: .init(
                adminPassword: "secret", seedDemoData: false, log: lines.sink, passwordIterations: 1_000,
                // Five seconds, so that the four logins fit in the lock on a loaded machine.
                loginFailureLimit: 3, lockoutDuration: .seconds(5)))
        defer { server.stop() }
        let client = WebClient(port: server.port)
        for _ in 0..<3 {
            let wrong = try client.logIn(user: "admin", password: "guess")
            #expect(wrong.status == 401)
            #expect(wrong.body.contains(#"<p class="error" role="alert">User name or password invalid</p>"#))
        }
        let locked = try client.logIn(user: "admin", password: "secret")
        #expect(locked.status == 401)
        #expect(locked.body.contains(#"<p class="error" role="alert">User name or password invalid</p>"#))
        #expect(locked.header("Location") == nil)
        #expect(
            lines.all
                == Array(repeating: "local instance: failed login of user 'admin' (login form) from 127.0.0.1", count: 3)
                + ["local instance: user 'admin' locked for 5 seconds after 3 failed logins in a row"])
        Thread.sleep(forTimeInterval: 5.2)
        let unlocked = try client.logIn(user: "admin", password: "secret")
        #expect(unlocked.status == 303)
        #expect(unlocked.header("Location") == "/now")
    }

    @Test func aLimitOfZeroNeverLocks() async throws {
        let harness = try Harness(seed: false) { $0.loginFailureLimit = 0 }
        for _ in 0..<30 {
            _ = try await harness.send("GET", "/api/now/table/incident", headers: Self.basic("admin", "guess"))
        }
        #expect(try await harness.send("GET", "/api/now/table/incident").statusCode == 200)
    }
}
