import Foundation
@preconcurrency import Glibc
import NowData
import TestSupport
import Testing

/// Attachments through the built `nowflow serve`: a multipart upload far past the listener's 10 MB body limit
/// streams into its file in bounded memory (issue 13).
@Suite struct ServeAttachmentTests {
    static let authorization = "Basic " + Data("admin:pw".utf8).base64EncodedString()

    @Test func aLargeMultipartUploadStreamsInBoundedMemory() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("serve-mp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await ServeProcess(
            ["--db", directory.appendingPathComponent("db.sqlite").path, "--password", "pw"])
        let client = HTTPTestClient(port: server.port)
        let record = try await client.send(
            "POST", "/api/now/table/incident",
            headers: ["Authorization": Self.authorization, "Content-Type": "application/json"],
            body: Data(#"{"short_description":"large form"}"#.utf8))
        let recordID = try #require(try JSONValue(json: record.body)["result"]?["sys_id"]?.string)
        let before = try server.peakMemory()

        let size = 48 << 20
        let bytes = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 12) })
        let boundary = "nowflow-large-form"
        var body = Data(
            ("--\(boundary)\r\nContent-Disposition: form-data; name=\"table_name\"\r\n\r\nincident\r\n"
                + "--\(boundary)\r\nContent-Disposition: form-data; name=\"table_sys_id\"\r\n\r\n\(recordID)\r\n"
                + "--\(boundary)\r\nContent-Disposition: form-data; name=\"uploadFile\"; filename=\"large.bin\"\r\n"
                + "Content-Type: application/octet-stream\r\n\r\n").utf8)
        body.append(bytes)
        body.append(Data("\r\n--\(boundary)--\r\n".utf8))
        let created = try await client.send(
            "POST", "/api/now/attachment/upload",
            headers: ["Authorization": Self.authorization, "Content-Type": "multipart/form-data; boundary=\(boundary)"],
            body: body)
        #expect(created.status == 201)
        var hasher = SHA256()
        hasher.update(bytes)
        let result = try JSONValue(json: created.body)["result"]
        #expect(result?["size_bytes"]?.string == String(size))
        #expect(result?["hash"]?.string == hasher.finalizeHex())

        // Held in memory, the body alone would raise the peak by 48 MB.
        let growth = try server.peakMemory() - before
        #expect(growth < 16 << 20, "the server's peak memory grew by \(growth >> 20) MB for a 48 MB form")
        server.send(SIGTERM)
        #expect(await server.waitForExit().status == 0)
    }
}
