import Foundation
import LocalInstance
import NowData
import TestSupport
import Testing

@testable import LocalInstance

/// Uploads over HTTP streamed to their files as they arrive: a raw upload spooled (the digest is the listener's,
/// never the client's), a multipart one parsed into its files (past the listener's 10 MB body limit); a refused,
/// too large or abandoned upload leaves no file behind, and a download is sent from the file.
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

    /// The platform's answer to a file over the instance's 1000-byte limit, by either upload.
    static let overTheLimit: JSONValue = [
        "error": [
            "message": "Failed to create the attachment",
            "detail": "The file exceeds the maximum attachment size (com.glide.attachment.max_size: 1000 bytes)",
        ],
        "status": "failure",
    ]

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
        #expect(tooLarge.body == Self.overTheLimit)
        #expect(try FileManager.default.contentsOfDirectory(atPath: attachments.path) == [])
        let unauthorized = try await client.send(
            "POST", "/api/now/attachment/file?table_name=incident&table_sys_id=\(Self.incidentID)&file_name=a.bin",
            headers: ["Content-Type": "application/octet-stream"], body: Data(count: 10))
        #expect(unauthorized.status == 401)
        #expect(try FileManager.default.contentsOfDirectory(atPath: attachments.path) == [])
        #expect(try await Self.upload(client, Data(count: 1000)).status == 201)
    }

    static let multipartHeaders = [
        "Authorization": Harness.adminAuth,
        "Content-Type": "multipart/form-data; boundary=\(MultipartUploadTests.boundary)",
    ]

    @Test func aMultipartUploadPastTheBodyLimitStreamsToItsFiles() async throws {
        let (server, client, attachments) = try await Self.served()
        defer { server.stop() }
        let bytes = Data((0..<(HTTPListener.defaultBodyLimit + 2_000_000)).map { UInt8(truncatingIfNeeded: $0 &* 13) })
        let created = try await client.send(
            "POST", "/api/now/attachment/upload", headers: Self.multipartHeaders,
            body: MultipartUploadTests.form(
                record: Self.incidentID, files: [("f", "big.bin", bytes), ("f", "small.txt", Data("small".utf8))]))
        #expect(created.status == 201)
        let result = try JSONValue(json: created.body)["result"]
        var hasher = SHA256()
        hasher.update(bytes)
        #expect(result?["hash"]?.string == hasher.finalizeHex())
        #expect(result?["file_name"]?.string == "big.bin")
        let sysID = try #require(result?["sys_id"]?.string)
        #expect(try FileManager.default.contentsOfDirectory(atPath: attachments.path).count == 2)
        let file = try await client.send(
            "GET", "/api/now/attachment/\(sysID)/file", headers: ["Authorization": Harness.adminAuth])
        #expect(file.body == bytes)
    }

    @Test func aMultipartFileOverTheMaximumSizeIsRefusedAndRemoved() async throws {
        let (server, client, attachments) = try await Self.served(maxSize: 1000)
        defer { server.stop() }
        let refused = try await client.send(
            "POST", "/api/now/attachment/upload", headers: Self.multipartHeaders,
            body: MultipartUploadTests.form(record: Self.incidentID, files: [("f", "over.bin", Data(count: 100_000))]))
        #expect(refused.status == 400)
        #expect(try JSONValue(json: refused.body) == Self.overTheLimit)
        #expect(try FileManager.default.contentsOfDirectory(atPath: attachments.path) == [])
        let unauthorized = try await client.send(
            "POST", "/api/now/attachment/upload",
            headers: ["Content-Type": "multipart/form-data; boundary=\(MultipartUploadTests.boundary)"],
            body: MultipartUploadTests.form(record: Self.incidentID, files: [("f", "a.bin", Data(count: 10))]))
        #expect(unauthorized.status == 401)
        #expect(try FileManager.default.contentsOfDirectory(atPath: attachments.path) == [])
    }

    /// The names in `directory` once `done` holds of them, or after a minute (a guard against a hang).
    static func entries(of directory: URL, until done: ([String]) -> Bool) async throws -> [String] {
        let deadline = ContinuousClock.now + .seconds(60)
        var names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        while !done(names), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        }
        return names
    }

    @Test func aClientDroppingMidPartLeavesNoAttachmentAndNoFile() async throws {
        let (server, client, attachments) = try await Self.served()
        defer { server.stop() }
        let body = MultipartUploadTests.form(record: Self.incidentID, files: [("f", "a.bin", Data(count: 4_000_000))])
        let head = "POST /api/now/attachment/upload HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            + "Authorization: \(Harness.adminAuth)\r\n"
            + "Content-Type: multipart/form-data; boundary=\(MultipartUploadTests.boundary)\r\n"
            + "Content-Length: \(body.count)\r\n\r\n"
        do {
            let connection = try RawHTTPClient.Connection(port: server.port)
            connection.send(Array(head.utf8) + Array(body.prefix(2_000_000)))
            // The part's file is being written when the client goes away (the connection closes with it).
            #expect(try await Self.entries(of: attachments, until: { $0.count == 1 }).count == 1)
        }
        #expect(try await Self.entries(of: attachments, until: \.isEmpty) == [])
        let list = try await client.send("GET", "/api/now/attachment", headers: ["Authorization": Harness.adminAuth])
        #expect(list.header("X-Total-Count") == "0")
    }
}
