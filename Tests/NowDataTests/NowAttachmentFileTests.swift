import Foundation
import LocalInstance
import NowData
import Testing

/// `NowAttachmentService`'s file-based upload and download: streamed over HTTP by `CurlTransport` (the server
/// spooling the body to its file and answering the download from the file), copied in process, read and written
/// whole over a transport that does not stream; `com.glide.attachment.max_size` over HTTP.
///
/// Serialized: each test moves files of 12 to 16 MB through a server; one at a time bounds the suite's memory and
/// disk to one transfer.
@Suite(.serialized) struct NowAttachmentFileTests {
    /// A fresh directory, and bytes that are not all alike.
    static func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("files-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func bytes(_ count: Int) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 11) })
    }

    /// Uploads `count` bytes from a file and downloads them to another through `service`; checks both.
    static func roundTrip(_ service: NowAttachmentService, record: String, count: Int, in directory: URL) async throws {
        let source = directory.appendingPathComponent("source.bin")
        let bytes = Self.bytes(count)
        try bytes.write(to: source)
        let progress = ProgressLog()
        let metadata = try await service.upload(
            fileURL: source,
            configuration: NowAttachmentServiceTests.config(record, "big file.bin", "application/octet-stream")
        ) { written, total, expected in progress.add(written, total, expected) }
        #expect(metadata.sizeInBytes == count)
        #expect(metadata.hash == NowAttachmentServiceTests.hex(bytes))
        #expect(progress.calls == [[Int64(count), Int64(count), Int64(count)]])
        let copy = directory.appendingPathComponent("copy.bin")
        try Data("old".utf8).write(to: copy)
        let downloaded = try await service.attachment(for: metadata.sysId, writingTo: copy)
        #expect(downloaded.sysId == metadata.sysId)
        #expect(try Data(contentsOf: copy) == bytes)
        // Nothing is left beside the copy.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["copy.bin", "source.bin"])
    }

    @Test func overHTTPTheFilesStreamBeyondTheBodyLimit() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("instance.sqlite").path
        let server = try LocalInstanceServer(
            options: LocalInstance.Options(
                databasePath: database, seedDemoData: false, log: { _ in }, attachmentMaxSize: 16 << 20))
        defer { server.stop() }
        let work = directory.appendingPathComponent("work")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let (service, record) = try await NowAttachmentServiceTests.service(
            CurlTransport(instanceURL: URL(string: server.url)!, timeout: .seconds(30)), url: server.url)
        // 12 MB: more than the listener's 10 MB body limit, which a spooled upload is not bound by.
        try await Self.roundTrip(service, record: record, count: 12 << 20, in: work)
        // The stored files: one per attachment, no spool or staged file left.
        let stored = try FileManager.default.contentsOfDirectory(atPath: database + ".attachments")
        #expect(stored.count == 1)
        #expect(stored.allSatisfy { $0.count == 32 })

        // Bytes changed on the server's disk: the digest libcurl's write callback computed does not match.
        let storedFile = URL(fileURLWithPath: database + ".attachments").appendingPathComponent(stored[0])
        try Data("tampered".utf8).write(to: storedFile)
        let copy = work.appendingPathComponent("copy.bin")
        var mismatch: (any Error)?
        do {
            _ = try await service.attachment(for: stored[0], writingTo: copy)
        } catch {
            mismatch = error
        }
        #expect(mismatch.map(NowAttachmentServiceTests.isAttachmentValidation) == true)
        #expect(try Data(contentsOf: copy) == Self.bytes(12 << 20))

        let large = work.appendingPathComponent("large.bin")
        try Self.bytes((16 << 20) + 1).write(to: large)
        var refused: (any Error)?
        do {
            _ = try await service.upload(
                fileURL: large, configuration: NowAttachmentServiceTests.config(record, "large.bin")) { _, _, _ in }
        } catch {
            refused = error
        }
        #expect(
            refused.map { "\($0)" }
                == "bad response 400 from POST /api/now/attachment/file: Failed to create the attachment (The file exceeds the maximum attachment size (com.glide.attachment.max_size: 16777216 bytes))"
        )
        #expect(try FileManager.default.contentsOfDirectory(atPath: database + ".attachments").count == 1)
    }

    @Test func inProcessTheFilesAreCopied() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let instance = try makeLocalInstance()
        let (service, record) = try await NowAttachmentServiceTests.service(instance.transport)
        try await Self.roundTrip(service, record: record, count: 300_000, in: directory)
    }

    @Test func overATransportThatDoesNotStreamTheFilesAreReadAndWrittenWhole() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let instance = try makeLocalInstance()
        let sent = ProgressLog()
        let transport = ClosureTransport { request in
            sent.add(request.bodyFile == nil ? 0 : 1, request.responseBodyFile == nil ? 0 : 1, 0)
            return try await instance.transport.send(request)
        }
        let (service, record) = try await NowAttachmentServiceTests.service(transport)
        try await Self.roundTrip(service, record: record, count: 5_000, in: directory)
        // The create, the upload, the download: never a file for the closure.
        #expect(sent.calls == [[0, 0, 0], [0, 0, 0], [0, 0, 0]])
    }

    @Test func aDownloadThatDoesNotMatchItsHashLeavesTheFileAsItWas() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let instance = try makeLocalInstance()
        let transport = ClosureTransport { request in
            var response = try await instance.transport.send(request)
            if request.path.hasSuffix("/file"), request.method == "GET" { response.body = Data("tampered".utf8) }
            return response
        }
        let (service, record) = try await NowAttachmentServiceTests.service(transport)
        let metadata = try await service.upload(
            data: Data("original".utf8), configuration: NowAttachmentServiceTests.config(record, "a.txt")) { _, _, _ in }
        let copy = directory.appendingPathComponent("copy.txt")
        try Data("before".utf8).write(to: copy)
        var failure: (any Error)?
        do {
            _ = try await service.attachment(for: metadata.sysId, writingTo: copy)
        } catch {
            failure = error
        }
        #expect(failure.map(NowAttachmentServiceTests.isAttachmentValidation) == true)
        #expect(try String(contentsOf: copy, encoding: .utf8) == "before")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["copy.txt"])
        // Without validation, the bytes are written as they came.
        _ = try await service.attachment(for: metadata.sysId, writingTo: copy, validateAttachment: false)
        #expect(try String(contentsOf: copy, encoding: .utf8) == "tampered")
    }
}
