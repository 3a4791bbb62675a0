import Foundation
import NowData
import TestSupport
import Testing

@testable import LocalInstance

/// Multipart uploads (`POST /api/now/attachment/upload`) received as they arrive, in process (from the body or a
/// body file): a 0-byte file and odd names kept as names, and the form's limits (a file over
/// `com.glide.attachment.max_size`, too many parts, a large field, a truncated body) answered with the platform's
/// body and no file left behind.
@Suite struct MultipartUploadTests {
    static let incidentID = AttachmentAPITests.incidentID
    static let boundary = "----nowflow-form"

    /// A multipart body: the record's fields, then each file as (field name, file name, bytes).
    static func form(record: String = incidentID, files: [(String, String, Data)], extra: String = "") -> Data {
        var body = Data()
        body.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"table_name\"\r\n\r\nincident\r\n".utf8))
        body.append(
            Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"table_sys_id\"\r\n\r\n\(record)\r\n".utf8))
        body.append(Data(extra.utf8))
        for (field, name, bytes) in files {
            body.append(
                Data(
                    ("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(field)\"; filename=\"\(name)\"\r\n"
                        + "Content-Type: application/octet-stream\r\n\r\n").utf8))
            body.append(bytes)
            body.append(Data("\r\n".utf8))
        }
        body.append(Data("--\(boundary)--\r\n".utf8))
        return body
    }

    static let headers = [
        ("Authorization", Harness.adminAuth), ("Content-Type", "multipart/form-data; boundary=\(boundary)"),
    ]

    static func harness(maxSize: Int = LocalInstance.defaultAttachmentMaxSize) async throws -> Harness {
        let harness = try Harness(seed: false) { $0.attachmentMaxSize = maxSize }
        let created = try await harness.send(
            "POST", "/api/now/table/incident", body: #"{"sys_id":"\#(incidentID)","short_description":"files"}"#)
        #expect(created.statusCode == 201)
        return harness
    }

    static func files(_ harness: Harness) throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: harness.instance.attachments.content.directory.path))
    }

    static func attachmentCount(_ harness: Harness) async throws -> String? {
        try await harness.send("GET", "/api/now/attachment").headers["X-Total-Count"]
    }

    @Test func anEmptyFileAndAnOddNameAreKeptAsNames() async throws {
        let harness = try await Self.harness()
        let name = "../../etc/r\u{e9}sum\u{e9} final ☃.txt"
        let response = try await harness.send(
            "POST", "/api/now/attachment/upload", headers: Self.headers,
            rawBody: Self.form(files: [("f", "empty.bin", Data()), ("f", name, Data("x".utf8))]))
        #expect(response.statusCode == 201)
        let emptyID = try AttachmentAPITests.sysID(response)
        #expect(
            Harness.text(response)
                == #"{"result":"#
                + AttachmentAPITests.metadata(
                    emptyID, name: "empty.bin", size: 0, hash: SHA256.hex(""), type: "application/octet-stream")
                + "}")
        let list = try Harness.results(
            try await harness.send("GET", "/api/now/attachment", query: [("sysparm_query", "ORDERBYsys_created_on")]))
        let odd = try #require(list.first { $0["file_name"] as? String == name })
        let oddID = try #require(odd["sys_id"] as? String)
        #expect(odd["hash"] as? String == SHA256.hex("x"))
        #expect(try Self.files(harness) == [emptyID, oddID])
        #expect(try await harness.send("GET", "/api/now/attachment/\(oddID)/file").body == Data("x".utf8))
    }

    @Test func aFormInABodyFileIsReadAChunkAtATime() async throws {
        let harness = try await Self.harness()
        let bytes = Data((0..<(3 * AttachmentContent.chunkSize + 17)).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("form-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        try Self.form(files: [("f", "big.bin", bytes)]).write(to: file)
        var request = NowHTTPRequest(
            method: "POST", path: "/api/now/attachment/upload", headers: HTTPHeaders(Self.headers))
        request.bodyFile = file
        let response = try await harness.instance.transport.send(request)
        #expect(response.statusCode == 201)
        var hasher = SHA256()
        hasher.update(bytes)
        #expect(try Harness.result(response)["hash"] as? String == hasher.finalizeHex())
        #expect(try Harness.result(response)["size_bytes"] as? String == String(bytes.count))
        #expect(try Self.files(harness) == [try AttachmentAPITests.sysID(response)])
    }

    @Test func aFileOverTheMaximumSizeIsRefusedAndRemoved() async throws {
        let harness = try await Self.harness(maxSize: 1000)
        let response = try await harness.send(
            "POST", "/api/now/attachment/upload", headers: Self.headers,
            rawBody: Self.form(files: [("f", "fits.bin", Data(count: 1000)), ("f", "over.bin", Data(count: 1001))]))
        #expect(response.statusCode == 400)
        #expect(
            Harness.text(response)
                == #"{"error":{"message":"Failed to create the attachment","detail":"The file exceeds the maximum "#
                + #"attachment size (com.glide.attachment.max_size: 1000 bytes)"},"status":"failure"}"#)
        #expect(try Self.files(harness) == [])
        #expect(try await Self.attachmentCount(harness) == "0")
    }

    @Test func aTruncatedBodyMakesNoAttachmentAndLeavesNoFile() async throws {
        let harness = try await Self.harness()
        let whole = Self.form(files: [("f", "a.bin", Data(count: 5000))])
        let response = try await harness.send(
            "POST", "/api/now/attachment/upload", headers: Self.headers, rawBody: whole.prefix(3000))
        #expect(response.statusCode == 400)
        #expect(
            Harness.text(response)
                == #"{"error":{"message":"Failed to create the attachment. File part might be missing in the "#
                + #"request.","detail":null},"status":"failure"}"#)
        #expect(try Self.files(harness) == [])
        #expect(try await Self.attachmentCount(harness) == "0")
    }

    @Test func tooManyPartsOrALargeFieldAreRefused() async throws {
        let harness = try await Self.harness()
        let parts = (0..<AttachmentForm.maximumParts).map { ("f", "\($0).txt", Data("\($0)".utf8)) }
        let many = try await harness.send(
            "POST", "/api/now/attachment/upload", headers: Self.headers, rawBody: Self.form(files: parts))
        #expect(
            Harness.text(many)
                == #"{"error":{"message":"Failed to create the attachment","detail":"The form has more than 1000 "#
                + #"parts"},"status":"failure"}"#)
        let field = "--\(Self.boundary)\r\nContent-Disposition: form-data; name=\"encryption_context\"\r\n\r\n"
            + String(repeating: "e", count: AttachmentForm.maximumFieldSize + 1) + "\r\n"
        let large = try await harness.send(
            "POST", "/api/now/attachment/upload", headers: Self.headers,
            rawBody: Self.form(files: [("f", "a.txt", Data("a".utf8))], extra: field))
        #expect(
            Harness.text(large)
                == #"{"error":{"message":"Failed to create the attachment","detail":"The form field "#
                + #"encryption_context exceeds 65536 bytes"},"status":"failure"}"#)
        #expect(try Self.files(harness) == [])
        #expect(try await Self.attachmentCount(harness) == "0")
        let missing = try await harness.send(
            "POST", "/api/now/attachment/upload", headers: Self.headers,
            rawBody: Self.form(record: "", files: [("f", "a.txt", Data("a".utf8))]))
        #expect(
            Harness.text(missing)
                == #"{"error":{"message":"Failed to create the attachment","detail":"The table_sys_id parameter is "#
                + #"required"},"status":"failure"}"#)
        #expect(try Self.files(harness) == [])
    }
}
