import Foundation
import NowData
import Testing

@testable import LocalInstance

/// A local instance in memory with a hand-moved clock, and helpers to send raw requests.
struct Harness {
    let instance: LocalInstance
    let clock: TestClock
    let log: LogLines

    static let adminAuth = "Basic " + Data("admin:secret".utf8).base64EncodedString()
    /// The work factor of the harness's password hashes: low, so that each instance does not spend a second on
    /// its admin's.
    static let passwordIterations = 1_000

    init(seed: Bool = true, configure: (inout LocalInstance.Options) -> Void = { _ in }) throws {
        let clock = TestClock()
        let log = LogLines()
        var options = LocalInstance.Options(
            adminPassword: "secret", seedDemoData: seed, log: log.sink, passwordIterations: Self.passwordIterations)
        configure(&options)
        instance = try LocalInstance(options: options, now: { clock.now })
        self.clock = clock
        self.log = log
    }

    /// Sends a request through the in-process transport.
    func send(
        _ method: String, _ path: String, query: [(String, String)] = [], body: String? = nil,
        headers: [(String, String)]? = nil, rawBody: Data? = nil
    ) async throws -> NowHTTPResponse {
        var fields = headers ?? [("Authorization", Self.adminAuth)]
        if body != nil, headers == nil { fields.append(("Content-Type", "application/json")) }
        let request = NowHTTPRequest(
            method: method, path: path, queryItems: query.map { URLQueryItem(name: $0.0, value: $0.1) },
            headers: HTTPHeaders(fields), body: body.map { Data($0.utf8) } ?? rawBody)
        return try await instance.transport.send(request)
    }

    /// The JSON body as Foundation objects.
    static func json(_ response: NowHTTPResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
    }

    /// `result` of a single-record body.
    static func result(_ response: NowHTTPResponse) throws -> [String: Any] {
        try #require(try json(response)["result"] as? [String: Any])
    }

    /// `result` of a list body.
    static func results(_ response: NowHTTPResponse) throws -> [[String: Any]] {
        try #require(try json(response)["result"] as? [[String: Any]])
    }

    static func text(_ response: NowHTTPResponse) -> String {
        String(decoding: response.body, as: UTF8.self)
    }
}
