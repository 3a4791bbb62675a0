import Foundation
import LocalInstance
import NowData
import TestSupport
import Testing

@testable import LocalInstance

/// Raw uploads over HTTP spooled to their file as they arrive: the digest is the listener's (never the client's),
/// a refused or too large upload leaves no file behind, and a download is sent from the file.
@Suite struct AttachmentSpoolingTests {
    static let incidentID = "1c741bd70b2322007518478d83673af3"

    /// A server on a database in a fresh directory, with one incident, and an HTTP client to it.
    static func served(maxSize: Int = LocalInstance.defaultAttachmentMaxSize) async throws -> (
        LocalInstanceServer, HTTPTestClient, URL
    ) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("spool-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let server = try LocalInstanceServer(
            options: LocalInstance.Options(
                databasePath: directory.appendingPathComponent("db.sqlite").path, adminPassword: "secret",
                seedDemoData: false, log: { _ in }, attachmentMaxSize: maxSize))
        let client = HTTPTestClient(port: server.port)
        _ = try await client.send(
            "POST", "/api/now/table/incident",
            headers: ["Authorization": Harness.adminAuth, "Content-Type": "application/json"],
            body: Data(#"{"sys_id":"\#(incidentID)"}"#.utf8))
        return (server, client, directory.appendingPathComponent("db.sqlite.attachments"))
    }

    static func upload(_ client: HTTPTestClient, _ bytes: Data, record: String = incidentID, headers: [String: String] = [:])
        async throws -> (status: Int, body: JSONValue)
    {
        let reply = try await client.send(
            "POST", "/api/now/attachment/file?table_name=incident&table_sys_id=\(record)&file_name=a.bin",
            headers: ["Authorization": Harness.adminAuth, "Content-Type": "application/octet-stream"].merging(headers) { $1 },
            body: bytes)
        return (reply.status, try JSONValue(json: reply.body))
    }

    @Test func theDigestIsTheListenersAndTheFileIsRenamedIntoPlace() async throws {
        let (server, client, attachments) = try await Self.served()
        defer { server.stop() }
        let bytes = Data((0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 13) })
        let forged = String(repeating: "0", count: 64)
        let created = try await Self.upload(client, bytes, headers: [BodySpooling.digestHeader: forged])
        #expect(created.status == 201)
        var hasher = SHA256()
        hasher.update(bytes)
        #expect(created.body["result"]?["hash"]?.string == hasher.finalizeHex())
        let sysID = try #require(created.body["result"]?["sys_id"]?.string)
        #expect(try FileManager.default.contentsOfDirectory(atPath: attachments.path) == [sysID])
        let file = try await client.send(
            "GET", "/api/now/attachment/\(sysID)/file", headers: ["Authorization": Harness.adminAuth])
        #expect(file.status == 200)
        #expect(file.header("Content-Length") == "3000000")
        #expect(file.body == bytes)
    }

    @Test func aRefusedOrTooLargeUploadLeavesNoFile() async throws {
        let (server, client, attachments) = try await Self.served(maxSize: 1000)
        defer { server.stop() }
        let missing = try await Self.upload(client, Data(count: 10), record: "ffffffffffffffffffffffffffffffff")
        #expect(missing.status == 404)
        let tooLarge = try await Self.upload(client, Data(count: 1001))
        #expect(tooLarge.status == 400)
        #expect(
            tooLarge.body == [
                "error": [
                    "message": "Failed to create the attachment",
                    "detail": "The file exceeds the maximum attachment size (com.glide.attachment.max_size: 1000 bytes)",
                ],
                "status": "failure",
            ])
        #expect(try FileManager.default.contentsOfDirectory(atPath: attachments.path) == [])
        let unauthorized = try await client.send(
            "POST", "/api/now/attachment/file?table_name=incident&table_sys_id=\(Self.incidentID)&file_name=a.bin",
            headers: ["Content-Type": "application/octet-stream"], body: Data(count: 10))
        #expect(unauthorized.status == 401)
        #expect(try FileManager.default.contentsOfDirectory(atPath: attachments.path) == [])
        #expect(try await Self.upload(client, Data(count: 1000)).status == 201)
    }
}
