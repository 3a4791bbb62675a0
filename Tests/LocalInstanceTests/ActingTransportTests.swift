import Foundation
import NowData
import Testing

@testable import LocalInstance

/// ``LocalInstance/transport(actingAs:)``: a request without credentials of its own is the acting user's, through
/// the same access decision as over HTTP; one with its own credentials is authenticated by them.
@Suite struct ActingTransportTests {
    /// Sends `method path` through `transport`, with `authorization` when given.
    static func send(
        _ transport: any NowTransport, _ method: String, _ path: String, body: String? = nil,
        authorization: String? = nil
    ) async throws -> NowHTTPResponse {
        var fields: [(String, String)] = []
        if let authorization { fields.append(("Authorization", authorization)) }
        if body != nil { fields.append(("Content-Type", "application/json")) }
        return try await transport.send(
            NowHTTPRequest(method: method, path: path, headers: HTTPHeaders(fields), body: body.map { Data($0.utf8) }))
    }

    @Test func theActingUserGoesThroughTheAccessPolicy() async throws {
        let attack = try await AttackHarness()
        let acting = attack.instance.transport(actingAs: "joe.employee")
        let write = #"{"short_description":"as joe"}"#
        let refused = try await Self.send(acting, "POST", "/api/now/table/incident", body: write)
        let overHTTP = try await attack.send(.joe, "POST", "/api/now/table/incident", body: write)
        #expect(refused.statusCode == 403)
        #expect(Harness.text(refused) == AttackHarness.refusal("Insert"))
        #expect(overHTTP.statusCode == refused.statusCode)
        #expect(Harness.text(overHTTP) == Harness.text(refused))
        let read = try await Self.send(
            acting, "GET", "/api/now/table/sys_user/\(DemoData.sysID("sys_user", "joe.employee"))")
        #expect(read.statusCode == 200)
        let created = try await Self.send(
            attack.instance.transport(actingAs: "admin"), "POST", "/api/now/table/incident", body: write)
        #expect(created.statusCode == 201)
    }

    @Test func aRequestWithItsOwnCredentialsIsAuthenticatedByThem() async throws {
        let attack = try await AttackHarness()
        let acting = attack.instance.transport(actingAs: "admin")
        let wrong = "Basic " + Data("admin:not-the-password".utf8).base64EncodedString()
        let refused = try await Self.send(acting, "GET", "/api/now/table/incident", authorization: wrong)
        #expect(refused.statusCode == 401)
        #expect(Harness.text(refused) == AttackHarness.notAuthenticated)
        let joe = try #require(AttackHarness.Caller.joe.authorization)
        let asJoe = try await Self.send(
            acting, "POST", "/api/now/table/incident", body: #"{"short_description":"x"}"#, authorization: joe)
        #expect(asJoe.statusCode == 403)
        var keyed = NowHTTPRequest(method: "GET", path: "/api/now/table/incident")
        keyed.headers.add(name: "x-sn-apikey", value: "not-a-key")
        #expect(try await acting.send(keyed).statusCode == 401)
    }

    @Test func aBatchWithoutCredentialsIsTheActingUsers() async throws {
        let attack = try await AttackHarness()
        let joe = try #require(AttackHarness.Caller.joe.authorization)
        let batch = """
            {"batch_request_id":"1","rest_requests":[\
            {"id":"mine","method":"POST","url":"/api/now/table/incident",\
            "headers":[{"name":"Content-Type","value":"application/json"}],\
            "body":"\(Data(#"{"short_description":"batched"}"#.utf8).base64EncodedString())"},\
            {"id":"joes","method":"POST","url":"/api/now/table/incident",\
            "headers":[{"name":"Content-Type","value":"application/json"},{"name":"Authorization","value":"\(joe)"}],\
            "body":"\(Data(#"{"short_description":"batched"}"#.utf8).base64EncodedString())"}]}
            """
        let answer = try await Self.send(
            attack.instance.transport(actingAs: "admin"), "POST", "/api/now/v1/batch", body: batch)
        #expect(answer.statusCode == 200)
        let serviced = try #require(try Harness.json(answer)["serviced_requests"] as? [[String: Any]])
        #expect(serviced.map { "\($0["id"] ?? "") \($0["status_code"] ?? "")" } == ["mine 201", "joes 403"])
        let plain = try await Self.send(attack.instance.transport, "POST", "/api/now/v1/batch", body: batch)
        #expect(plain.statusCode == 401)
    }

    @Test func anExistingAdministratorIsKeptWhenAsked() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nowflow-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("instance.db").path
        func open(_ password: String, keeps: Bool) throws -> (Harness, String) {
            let harness = try Harness(seed: false) {
                $0.databasePath = path
                $0.adminPassword = password
                $0.keepsExistingAdmin = keeps
            }
            let users = try #require(harness.instance.dictionary.table("sys_user"))
            let hash = try harness.instance.database.read { db in
                try harness.instance.store.fetch(users, sysID: DemoData.sysID("sys_user", "admin"), db)?[
                    "user_password"]
            }
            return (harness, try #require(hash))
        }
        let (created, first) = try open("first-pw", keeps: true)
        #expect(PasswordHash.verify("first-pw", against: first))
        created.instance.close()
        let (kept, second) = try open("other-pw", keeps: true)
        #expect(second == first)
        let login = "Basic " + Data("admin:first-pw".utf8).base64EncodedString()
        #expect(
            try await kept.send("GET", "/api/now/table/sys_user", headers: [("Authorization", login)]).statusCode == 200
        )
        kept.instance.close()
        let (reset, third) = try open("other-pw", keeps: false)
        #expect(third != first)
        #expect(PasswordHash.verify("other-pw", against: third))
        reset.instance.close()
    }
}
