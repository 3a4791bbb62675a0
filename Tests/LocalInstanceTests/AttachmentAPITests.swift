import Foundation
import NowData
import TestSupport
import Testing

@testable import LocalInstance

/// The Attachment API of the local instance, in process and over HTTP: uploads (raw and multipart), metadata,
/// lists, downloads with `X-Attachment-Metadata`, deletes, and the platform's error bodies.
@Suite struct AttachmentAPITests {
    static let incidentID = "0c5f3cece4bc4aa1a7a4d1d4dd3e9b01"

    /// A harness with one incident to attach files to.
    static func harness() async throws -> Harness {
        let harness = try Harness(seed: false)
        let created = try await harness.send(
            "POST", "/api/now/table/incident", body: #"{"sys_id":"\#(incidentID)","short_description":"files"}"#)
        #expect(created.statusCode == 201)
        return harness
    }

    static func upload(
        _ harness: Harness, name: String, bytes: Data, contentType: String = "text/plain",
        table: String = "incident", record: String = incidentID
    ) async throws -> NowHTTPResponse {
        try await harness.instance.transport.send(
            NowHTTPRequest(
                method: "POST", path: "/api/now/attachment/file",
                queryItems: [
                    URLQueryItem(name: "table_name", value: table), URLQueryItem(name: "table_sys_id", value: record),
                    URLQueryItem(name: "file_name", value: name),
                ],
                headers: ["Authorization": Harness.adminAuth, "Content-Type": contentType], body: bytes))
    }

    /// The metadata the API renders for an attachment of this test's incident, made at the test clock's time.
    static func metadata(_ sysID: String, name: String, size: Int, hash: String, type: String = "text/plain")
        -> String
    {
        #"{"file_name":"\#(name)","content_type":"\#(type)","size_bytes":"\#(size)","size_compressed":"\#(size)","#
            + #""compressed":"false","hash":"\#(hash)","table_name":"incident","table_sys_id":"\#(incidentID)","#
            + #""encryption_context":"","state":"available","chunk_size_bytes":"1048576","average_image_color":"","#
            + #""image_width":"","image_height":"","sys_id":"\#(sysID)","sys_created_on":"2026-11-30 09:00:00","#
            + #""sys_created_by":"admin","sys_updated_on":"2026-11-30 09:00:00","sys_updated_by":"admin","#
            + #""sys_mod_count":"0","sys_class_name":"sys_attachment","sys_tags":"","#
            + #""download_link":"http://localhost/api/now/attachment/\#(sysID)/file"}"#
    }

    static func sysID(_ response: NowHTTPResponse) throws -> String {
        try #require(try Harness.result(response)["sys_id"] as? String)
    }

    @Test func uploadsReadsListsDownloadsAndDeletes() async throws {
        let harness = try await Self.harness()
        let bytes = Data("hello, attachments\n".utf8)
        let hash = SHA256.hex("hello, attachments\n")
        let created = try await Self.upload(harness, name: "notes.txt", bytes: bytes)
        #expect(created.statusCode == 201)
        let sysID = try Self.sysID(created)
        let expected = Self.metadata(sysID, name: "notes.txt", size: bytes.count, hash: hash)
        #expect(Harness.text(created) == #"{"result":"# + expected + "}")
        #expect(created.headers["Location"] == "http://localhost/api/now/v1/attachment/\(sysID)/file")

        let read = try await harness.send("GET", "/api/now/attachment/\(sysID)")
        #expect(Harness.text(read) == #"{"result":"# + expected + "}")

        let list = try await harness.send(
            "GET", "/api/now/attachment",
            query: [("sysparm_query", "table_name=incident^table_sys_id=\(Self.incidentID)")])
        #expect(list.statusCode == 200)
        #expect(Harness.text(list) == #"{"result":["# + expected + "]}")
        #expect(list.headers["X-Total-Count"] == "1")

        let file = try await harness.send("GET", "/api/now/attachment/\(sysID)/file")
        #expect(file.statusCode == 200)
        #expect(file.body == bytes)
        #expect(file.headers["Content-Type"] == "text/plain")
        #expect(file.headers["X-Attachment-Metadata"] == expected)

        let table = try await harness.send(
            "GET", "/api/now/table/sys_attachment/\(sysID)", query: [("sysparm_fields", "file_name,hash,size_bytes")])
        #expect(Harness.text(table) == #"{"result":{"file_name":"notes.txt","hash":"\#(hash)","size_bytes":"19"}}"#)

        let deleted = try await harness.send("DELETE", "/api/now/attachment/\(sysID)")
        #expect(deleted.statusCode == 204)
        #expect(!FileManager.default.fileExists(atPath: harness.instance.attachments.content.file(sysID).path))
        let gone = try await harness.send("GET", "/api/now/attachment/\(sysID)/file")
        #expect(gone.statusCode == 404)
        #expect(
            Harness.text(gone)
                == #"{"error":{"message":"No Record found","detail":"Record doesn't exist or ACL restricts the "#
                + #"record retrieval"},"status":"failure"}"#)
        #expect(try await harness.send("DELETE", "/api/now/attachment/\(sysID)").statusCode == 404)
    }

    @Test func anEmptyFileAndAnOddNameAreKeptAsTheyAre() async throws {
        let harness = try await Self.harness()
        let empty = try await Self.upload(harness, name: "empty.bin", bytes: Data(), contentType: "application/x")
        let emptyID = try Self.sysID(empty)
        #expect(
            Harness.text(empty)
                == #"{"result":"#
                + Self.metadata(
                    emptyID, name: "empty.bin", size: 0, hash: SHA256.hex(""), type: "application/x") + "}")
        #expect(try await harness.send("GET", "/api/now/attachment/\(emptyID)/file").body == Data())

        let name = "../../etc/r\u{e9}sum\u{e9} final ☃.txt"
        let odd = try await Self.upload(harness, name: name, bytes: Data("x".utf8))
        let oddID = try Self.sysID(odd)
        #expect(try Harness.result(odd)["file_name"] as? String == name)
        let files = try FileManager.default.contentsOfDirectory(atPath: harness.instance.attachments.content.directory.path)
        #expect(Set(files) == [emptyID, oddID])
    }

    @Test func uploadErrorsAnswerWithThePlatformsBody() async throws {
        let harness = try await Self.harness()
        let missing = try await harness.instance.transport.send(
            NowHTTPRequest(
                method: "POST", path: "/api/now/attachment/file",
                queryItems: [URLQueryItem(name: "table_name", value: "incident")],
                headers: ["Authorization": Harness.adminAuth], body: Data("x".utf8)))
        #expect(missing.statusCode == 400)
        #expect(
            Harness.text(missing)
                == #"{"error":{"message":"Failed to create the attachment","detail":"The table_sys_id parameter is "#
                + #"required"},"status":"failure"}"#)
        let noTable = try await Self.upload(harness, name: "a.txt", bytes: Data("x".utf8), table: "u_nothing")
        #expect(
            Harness.text(noTable)
                == #"{"error":{"message":"Failed to create the attachment","detail":"Invalid table u_nothing"},"#
                + #""status":"failure"}"#)
        let noRecord = try await Self.upload(
            harness, name: "a.txt", bytes: Data("x".utf8), record: "ffffffffffffffffffffffffffffffff")
        #expect(noRecord.statusCode == 404)
        #expect(
            Harness.text(noRecord)
                == #"{"error":{"message":"Failed to create the attachment","detail":"No record "#
                + #"ffffffffffffffffffffffffffffffff in the table incident"},"status":"failure"}"#)
        let anonymous = try await harness.send("GET", "/api/now/attachment", headers: [])
        #expect(anonymous.statusCode == 401)
        let method = try await harness.send("PUT", "/api/now/attachment/file")
        #expect(method.statusCode == 405)
        #expect(
            Harness.text(method)
                == #"{"error":{"message":"Method not Supported","detail":"PUT method not supported for API"},"#
                + #""status":"failure"}"#)
        #expect(try await harness.send("POST", "/api/now/attachment/\(Self.incidentID)/file").statusCode == 405)
        let unknown = try await harness.send("GET", "/api/now/attachment/a/b")
        #expect(
            Harness.text(unknown)
                == #"{"error":{"message":"Requested URI does not represent any resource","detail":null},"#
                + #""status":"failure"}"#)
        let notMultipart = try await harness.send("POST", "/api/now/attachment/upload", body: "{}")
        #expect(
            Harness.text(notMultipart)
                == #"{"error":{"message":"Failed to create the attachment. File part might be missing in the "#
                + #"request.","detail":null},"status":"failure"}"#)
    }

    @Test func deletingTheMetadataThroughTheTableAPIRemovesTheFile() async throws {
        let harness = try await Self.harness()
        let sysID = try Self.sysID(try await Self.upload(harness, name: "a.txt", bytes: Data("abc".utf8)))
        let path = harness.instance.attachments.content.file(sysID).path
        #expect(FileManager.default.fileExists(atPath: path))
        #expect(try await harness.send("DELETE", "/api/now/table/sys_attachment/\(sysID)").statusCode == 204)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func aMultipartUploadWithTwoFilesMakesTwoAttachments() async throws {
        let harness = try await Self.harness()
        let boundary = "----nowflow-boundary"
        var body = ""
        body += "--\(boundary)\r\nContent-Disposition: form-data; name=\"table_name\"\r\n\r\nincident\r\n"
        body += "--\(boundary)\r\nContent-Disposition: form-data; name=\"table_sys_id\"\r\n\r\n\(Self.incidentID)\r\n"
        body += "--\(boundary)\r\nContent-Disposition: form-data; name=\"uploadFile\"; filename=\"one.txt\"\r\n"
        body += "Content-Type: text/plain\r\n\r\nfirst file\r\n"
        body += "--\(boundary)\r\nContent-Disposition: form-data; name=\"uploadFile\"; filename=\"two.csv\"\r\n"
        body += "Content-Type: text/csv\r\n\r\na,b\r\n1,2\r\n--\(boundary)--\r\n"
        let response = try await harness.send(
            "POST", "/api/now/attachment/upload",
            headers: [
                ("Authorization", Harness.adminAuth), ("Content-Type", "multipart/form-data; boundary=\(boundary)"),
            ], rawBody: Data(body.utf8))
        #expect(response.statusCode == 201)
        let firstID = try Self.sysID(response)
        #expect(
            Harness.text(response)
                == #"{"result":"#
                + Self.metadata(firstID, name: "one.txt", size: 10, hash: SHA256.hex("first file")) + "}")
        let list = try Harness.results(
            try await harness.send(
                "GET", "/api/now/attachment", query: [("sysparm_query", "table_sys_id=\(Self.incidentID)^ORDERBYfile_name")]))
        #expect(list.map { $0["file_name"] as? String } == ["one.txt", "two.csv"])
        let second = try #require(list.last?["sys_id"] as? String)
        #expect(try await harness.send("GET", "/api/now/attachment/\(second)/file").body == Data("a,b\r\n1,2".utf8))
    }

    @Test func deletingTheRecordDeletesItsAttachments() async throws {
        let harness = try await Self.harness()
        let sysID = try Self.sysID(try await Self.upload(harness, name: "a.txt", bytes: Data("abc".utf8)))
        #expect(try await harness.send("DELETE", "/api/now/table/incident/\(Self.incidentID)").statusCode == 204)
        #expect(try await harness.send("GET", "/api/now/attachment/\(sysID)").statusCode == 404)
        #expect(!FileManager.default.fileExists(atPath: harness.instance.attachments.content.file(sysID).path))
    }

    @Test func overHTTPTheBytesAndTheMetadataHeaderArriveWhole() async throws {
        let instance = try LocalInstance(options: .init(adminPassword: "secret", seedDemoData: false, log: { _ in }))
        let listener = try HTTPListener { request in instance.reply(to: request) }
        defer {
            listener.stop()
            instance.close()
        }
        let client = HTTPTestClient(port: listener.port)
        let headers = ["Authorization": Harness.adminAuth, "Content-Type": "application/json"]
        _ = try await client.send(
            "POST", "/api/now/table/incident", headers: headers,
            body: Data(#"{"sys_id":"\#(Self.incidentID)"}"#.utf8))
        let bytes = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let created = try await client.send(
            "POST", "/api/now/attachment/file?table_name=incident&table_sys_id=\(Self.incidentID)&file_name=a%20b.bin",
            headers: ["Authorization": Harness.adminAuth, "Content-Type": "application/octet-stream"], body: bytes)
        #expect(created.status == 201)
        let object = try #require(try JSONSerialization.jsonObject(with: created.body) as? [String: Any])
        let result = try #require(object["result"] as? [String: Any])
        let sysID = try #require(result["sys_id"] as? String)
        #expect(result["file_name"] as? String == "a b.bin")
        var hasher = SHA256()
        hasher.update(bytes)
        #expect(result["hash"] as? String == hasher.finalizeHex())
        let file = try await client.send(
            "GET", "/api/now/attachment/\(sysID)/file", headers: ["Authorization": Harness.adminAuth])
        #expect(file.status == 200)
        #expect(file.body == bytes)
        let header = try #require(file.header("X-Attachment-Metadata"))
        let metadata = try #require(try JSONSerialization.jsonObject(with: Data(header.utf8)) as? [String: Any])
        #expect(metadata["size_bytes"] as? String == "300000")
        #expect(metadata["hash"] as? String == hasher.finalizeHex())
    }
}
