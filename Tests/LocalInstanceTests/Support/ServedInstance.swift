import Foundation
import LocalInstance
import NowData
import TestSupport
import Testing

@testable import LocalInstance

/// A ``Harness`` instance (in memory, hand-moved clock, `admin`/`secret`) behind an ``HTTPListener`` on a free port,
/// as `nowflow serve` runs it, with helpers to write requests byte for byte.
struct ServedInstance {
    let harness: Harness
    let listener: HTTPListener

    static let adminAuth = Harness.adminAuth

    init(configure: (inout LocalInstance.Options) -> Void = { _ in }) throws {
        let harness = try Harness(configure: configure)
        self.harness = harness
        listener = try HTTPListener { [instance = harness.instance] request in instance.reply(to: request) }
    }

    var port: UInt16 { listener.port }

    /// `method target` with the admin's credentials (unless `headers` names an `Authorization`), `headers` and a
    /// JSON body, written as it is.
    func send(
        _ method: String, _ target: String, headers: [(String, String)] = [], body: String? = nil,
        host: String = "127.0.0.1"
    ) async throws -> RawHTTPClient.Reply {
        var fields = headers
        if !fields.contains(where: { $0.0.lowercased() == "authorization" }) {
            fields.append(("Authorization", Self.adminAuth))
        }
        if let body {
            if !fields.contains(where: { $0.0.lowercased() == "content-type" }) {
                fields.append(("Content-Type", "application/json"))
            }
            if !fields.contains(where: { $0.0.lowercased() == "content-length" }) {
                fields.append(("Content-Length", String(body.utf8.count)))
            }
        }
        let head = "\(method) \(target) HTTP/1.1\r\nHost: \(host)\r\n"
            + fields.map { "\($0.0): \($0.1)\r\n" }.joined() + "Connection: close\r\n\r\n"
        return try await RawHTTPClient.exchangeOnItsOwnThread(Array((head + (body ?? "")).utf8), port: port)
    }

    /// Whether the server still answers a read of one user (200).
    func stillAnswers() async throws -> Bool {
        try await send("GET", "/api/now/table/sys_user?sysparm_limit=1&sysparm_fields=user_name").status == 200
    }
}
