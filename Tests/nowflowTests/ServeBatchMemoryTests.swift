import Foundation
@preconcurrency import Glibc
import NowData
import TestSupport
import Testing

/// The largest batch a user without roles can send to the built `nowflow serve` keeps the server's memory under
/// the bound `docs/local-instance.md` documents (issue 23): the batch's answer stops at 16 MB of bodies.
@Suite struct ServeBatchMemoryTests {
    static let admin = "Basic " + Data("admin:pw".utf8).base64EncodedString()
    static let joe = "Basic " + Data("joe.employee:joe-pw".utf8).base64EncodedString()
    /// The documented bound on the server's growth for such a batch.
    static let bound = 160 << 20

    @Test func theLargestBatchOfAUserWithoutRolesStaysUnderTheBound() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "serve-batch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await ServeProcess(
            ["--db", directory.appendingPathComponent("db.sqlite").path, "--password", "pw"])
        let client = HTTPTestClient(port: server.port)
        let users = try await client.send(
            "GET", "/api/now/table/sys_user?sysparm_query=user_name=joe.employee&sysparm_fields=sys_id",
            headers: ["Authorization": Self.admin])
        let joe = try #require(try JSONValue(json: users.body)["result"]?.array?.first?["sys_id"]?.string)
        let password = try await client.send(
            "PATCH", "/api/now/table/sys_user/\(joe)",
            headers: ["Authorization": Self.admin, "Content-Type": "application/json"],
            body: Data(#"{"user_password":"joe-pw"}"#.utf8))
        #expect(password.status == 200)

        // 1000 requests (the most a batch holds) for every user with every display value, about 150 KB of body.
        let item =
            #"{"id":"ID","method":"GET","url":"/api/now/table/sys_user?sysparm_display_value=all&sysparm_limit=10000"}"#
        let items = (0..<1000).map { item.replacingOccurrences(of: "ID", with: String($0)) }
        let batch = Data((#"{"batch_request_id":"m","rest_requests":["# + items.joined(separator: ",") + "]}").utf8)
        func send() async throws -> (serviced: Int, unserviced: Int) {
            let answer = try await client.send(
                "POST", "/api/now/v1/batch", headers: ["Authorization": Self.joe, "Content-Type": "application/json"],
                body: batch)
            #expect(answer.status == 200)
            let json = try JSONValue(json: answer.body)
            return (json["serviced_requests"]?.array?.count ?? -1, json["unserviced_requests"]?.array?.count ?? -1)
        }
        let before = try server.peakMemory()
        var answers: [(serviced: Int, unserviced: Int)] = []
        for _ in 0..<3 { answers.append(try await send()) }
        let growth = try server.peakMemory() - before
        // The answer stops at 16 MB of bodies: some requests are served, the rest listed as unserviced.
        #expect(answers.allSatisfy { $0.serviced > 0 && $0.serviced < 1000 && $0.serviced + $0.unserviced == 1000 })
        #expect(growth < Self.bound, "the server grew by \(growth >> 20) MB")
        server.send(SIGTERM)
        _ = await server.waitForExit()
    }
}
