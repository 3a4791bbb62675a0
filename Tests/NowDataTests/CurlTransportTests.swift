import CurlHTTP
import Foundation
import LocalInstance
@testable import NowData
import Testing

/// What the libcurl transport does on its own: many requests at once, a refused connection, its thread's life.
@Suite struct CurlTransportTests {
    private static let authorization = "Basic " + Data("admin:admin".utf8).base64EncodedString()

    private static func read(_ path: String, limit: Int = 1) -> NowHTTPRequest {
        NowHTTPRequest(
            method: "GET", path: path, queryItems: [URLQueryItem(name: "sysparm_limit", value: String(limit))],
            headers: ["Authorization": authorization, "Accept": "application/json"])
    }

    @Test func manyRequestsAtOnceAllComeBack() async throws {
        let server = try LocalInstanceServer(options: LocalInstance.Options(log: { _ in }))
        defer { server.stop() }
        let transport = CurlTransport(instanceURL: URL(string: server.url)!)

        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<24 {
                group.addTask {
                    try await transport.send(Self.read("/api/now/table/sys_user", limit: index + 1)).statusCode
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }

        #expect(statuses == Array(repeating: 200, count: 24))
    }

    @Test func aBodyAndItsHeadersArriveAsSent() async throws {
        let server = try LocalInstanceServer(options: LocalInstance.Options(seedDemoData: false, log: { _ in }))
        defer { server.stop() }
        let transport = CurlTransport(instanceURL: URL(string: server.url)!)
        var create = Self.read("/api/now/table/incident")
        create.method = "POST"
        create.queryItems = []
        create.headers["Content-Type"] = "application/json"
        create.body = Data(#"{"short_description":"Çà et là: \"quoted\" 💡"}"#.utf8)

        let created = try await transport.send(create)
        let record = try JSONSerialization.jsonObject(with: created.body) as? [String: [String: Any]]

        #expect(created.statusCode == 201)
        #expect(created.headers["content-type"] == "application/json;charset=UTF-8")
        #expect(record?["result"]?["short_description"] as? String == #"Çà et là: "quoted" 💡"#)
    }

    @Test func aRefusedConnectionIsCannotConnectToHost() async throws {
        let server = try LocalInstanceServer(options: LocalInstance.Options(log: { _ in }))
        let url = URL(string: server.url)!
        server.stop()
        let transport = CurlTransport(instanceURL: url)

        await #expect { _ = try await transport.send(Self.read("/api/now/table/incident")) } throws: { error in
            guard case NetworkServiceError.systemError(let underlying as URLError) = error else { return false }
            return underlying.code == .cannotConnectToHost
        }
    }

    @Test func aCertificateNoAuthorityVouchesForIsRefused() async throws {
        let server = try TLSTestServer()
        let transport = CurlTransport(instanceURL: URL(string: "https://127.0.0.1:\(server.port)")!)

        await #expect { _ = try await transport.send(Self.read("/api/now/table/incident")) } throws: { error in
            guard case NetworkServiceError.systemError(let underlying as URLError) = error else { return false }
            return underlying.code == .serverCertificateUntrusted
        }
        withExtendedLifetime(server) {}
    }

    @Test func itsThreadEndsWithTheTransport() async throws {
        let server = try LocalInstanceServer(options: LocalInstance.Options(log: { _ in }))
        defer { server.stop() }
        var transport: CurlTransport? = CurlTransport(instanceURL: URL(string: server.url)!)
        let client = try #require(try transport?.client.get())
        #expect(!client.isRunning)
        _ = try await transport?.send(Self.read("/api/now/table/incident"))
        #expect(client.isRunning)

        transport = nil
        try await eventually("the client's thread ends") { !client.isRunning }
    }
}
