import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LocalInstance
import Testing

@Suite struct LocalInstanceServerTests {
    @Test func servesTheInstanceUntilStopped() async throws {
        let server = try LocalInstanceServer(options: .init(adminPassword: "pw", log: { _ in }))
        #expect(server.url == "http://127.0.0.1:\(server.port)")
        let client = HTTPTestClient(port: server.port)
        let reply = try await client.send(
            "GET", "/api/now/table/sys_user?sysparm_query=user_name%3Dabel.tuter&sysparm_fields=user_name",
            headers: ["Authorization": "Basic " + Data("admin:pw".utf8).base64EncodedString()])
        #expect(reply.status == 200)
        #expect(reply.text == #"{"result":[{"user_name":"abel.tuter"}]}"#)
        server.stop()
        server.stop()
        await #expect(throws: URLError.self) { _ = try await HTTPTestClient(port: server.port).send("GET", "/") }
    }

    @Test func reportsATakenAddress() throws {
        let first = try LocalInstanceServer(options: .init(log: { _ in }))
        defer { first.stop() }
        let error = #expect(throws: HTTPListenerError.self) {
            try LocalInstanceServer(port: first.port, options: .init(log: { _ in }))
        }
        #expect(error?.reason == "Address already in use")
    }
}
