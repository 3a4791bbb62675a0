import Foundation
import Synchronization
import LocalInstance
import NowData
import Testing

/// `NowAttachmentService` against the local instance, in process and over HTTP: upload, download with hash
/// validation, metadata by sys_id and by query (with a paginator), delete, and its errors.
///
/// Serialized: uploads and downloads of up to 2 MB through servers of their own, one at a time, so that the
/// suite's memory stays that of one transfer.
@Suite(.serialized) struct NowAttachmentServiceTests {
    static let admin = NowAuthentication.basic(user: "admin", password: "admin")

    /// An attachment service on `transport` to an instance with one incident; its sys_id.
    static func service(_ transport: any NowTransport, url: String = "http://127.0.0.1") async throws -> (
        NowAttachmentService, String
    ) {
        let configuration = NowServiceConfiguration(
            instanceURL: URL(string: url)!, authentication: admin, transport: transport,
            retryPolicy: RetryPolicy(
                maxAttempts: 2, baseDelay: .milliseconds(1), maxDelay: .milliseconds(2), totalBudget: .seconds(3600)))
        let table = NowTableService(configuration: configuration)
        let created = try await table.createRecord(with: ["short_description": "with files"], in: "incident")
        let sysID = try #require(created.convertToRecord().sysId)
        return (NowAttachmentService(configuration: configuration), sysID)
    }

    static func config(_ record: String, _ name: String, _ type: String = "text/plain")
        -> NowAttachmentUploadConfiguration
    {
        NowAttachmentUploadConfiguration(
            tableName: "incident", recordSysId: record, fileName: name, contentType: type, encryptionContext: nil)
    }

    /// The error `operation` throws, nil when it succeeds.
    static func failure<T>(_ operation: () async throws -> T) async -> (any Error)? {
        do {
            _ = try await operation()
            return nil
        } catch {
            return error
        }
    }

    static func status(_ error: any Error) -> Int? {
        if case NowDataError.badResponse(let status) = error { status.code } else { nil }
    }

    static func isAttachmentValidation(_ error: any Error) -> Bool {
        if case NowDataError.attachmentValidation = error { true } else { false }
    }

    static func hex(_ data: Data) -> String {
        var hasher = SHA256()
        hasher.update(data)
        return hasher.finalizeHex()
    }

    @Test func everyOperationInProcess() async throws {
        let instance = try makeLocalInstance()
        let (service, record) = try await Self.service(instance.transport)
        let bytes = Data("incident report\n".utf8)
        let progress = ProgressLog()
        let metadata = try await service.upload(data: bytes, configuration: Self.config(record, "report.txt")) {
            progress.add($0, $1, $2)
        }
        #expect(progress.calls == [[16, 16, 16]])
        #expect(metadata.fileName == "report.txt")
        #expect(metadata.mimeType == "text/plain")
        #expect(metadata.sizeInBytes == 16)
        #expect(metadata.hash == Self.hex(bytes))
        #expect(metadata.sourceTableName == "incident")
        #expect(metadata.sourceSysId == record)
        #expect(metadata.createdBy == "admin")
        #expect(metadata.download == URL(string: "http://localhost/api/now/attachment/\(metadata.sysId)/file"))

        let attachment = try await service.attachment(for: metadata.sysId)
        #expect(attachment.data == bytes)
        #expect(attachment.metadata == metadata)
        #expect(try await service.attachmentMetadata(for: metadata.sysId) == metadata)

        let second = try await service.upload(data: Data(), configuration: Self.config(record, "empty.txt")) { _, _, _ in }
        let filter = Filter(query: "table_sys_id=\(record)^ORDERBYfile_name")
        #expect(try await service.attachmentMetadata(filter: filter).map(\.fileName) == ["empty.txt", "report.txt"])
        #expect(try await service.attachmentMetadata(filter: filter, limit: 1).map(\.fileName) == ["empty.txt"])
        let paginator = service.attachmentMetadataPaginator(filter: filter, limit: 1)
        var pages: [[String]] = []
        for try await page in paginator { pages.append(page.map(\.fileName)) }
        #expect(pages == [["empty.txt"], ["report.txt"]])

        try await service.delete(sysId: second.sysId)
        let missing = await Self.failure { try await service.attachment(for: second.sysId) }
        #expect(missing.map(Self.status) == 404)
        let empty = await Self.failure { try await service.attachmentMetadata(for: "") }
        #expect(empty.map(isMissingSysID) == true)
    }

    @Test func completionFormsAnswerOnce() async throws {
        let instance = try makeLocalInstance()
        let (service, record) = try await Self.service(instance.transport)
        let uploaded = await completed { done in
            service.upload(data: Data("abc".utf8), configuration: Self.config(record, "a.txt"), progressUpdate: { _, _, _ in },
                           completion: done)
        }
        let metadata = try uploaded.get()
        let downloaded = try await completed { service.attachment(for: metadata.sysId, completion: $0) }.get()
        #expect(downloaded.data == Data("abc".utf8))
        #expect(try await completed { service.attachmentMetadata(for: metadata.sysId, completion: $0) }.get() == metadata)
        #expect(
            try await completed { service.attachmentMetadata(filter: Filter(query: "file_name=a.txt"), completion: $0) }
                .get() == [metadata])
        try await completed { service.delete(sysId: metadata.sysId, completion: $0) }.get()
        #expect(try await service.attachmentMetadata(filter: Filter(query: "file_name=a.txt")).isEmpty)
    }

    @Test func aChangedBodyFailsValidationUnlessValidationIsSkipped() async throws {
        let instance = try makeLocalInstance()
        let corrupting = ClosureTransport { request in
            var response = try await instance.transport.send(request)
            if request.path.hasSuffix("/file"), request.method == "GET" { response.body.append(0x21) }
            return response
        }
        let (service, record) = try await Self.service(corrupting)
        let metadata = try await service.upload(data: Data("exact".utf8), configuration: Self.config(record, "e.txt")) {
            _, _, _ in
        }
        let changed = await Self.failure { try await service.attachment(for: metadata.sysId) }
        #expect(changed.map(Self.isAttachmentValidation) == true)
        let unchecked = try await service.attachment(for: metadata.sysId, validateAttachment: false)
        #expect(unchecked.data == Data("exact!".utf8))
        #expect(throws: NowDataError.self) { try unchecked.validate() }
        let invalid = await Self.failure { try unchecked.validate() }
        #expect(invalid.map(Self.isAttachmentValidation) == true)
        #expect(throws: Never.self) {
            try NowAttachment(metadata: unchecked.metadata, data: Data("exact".utf8)).validate()
        }
    }

    @Test func aDownloadWithoutTheMetadataHeaderIsMissingAttachmentMetadata() async throws {
        let instance = try makeLocalInstance()
        let stripping = ClosureTransport { request in
            var response = try await instance.transport.send(request)
            response.headers["X-Attachment-Metadata"] = nil
            return response
        }
        let (service, record) = try await Self.service(stripping)
        let metadata = try await service.upload(data: Data("x".utf8), configuration: Self.config(record, "x.txt")) {
            _, _, _ in
        }
        let error = await Self.failure { try await service.attachment(for: metadata.sysId) }
        #expect(error.map { if case NowDataError.missingAttachmentMetadata = $0 { true } else { false } } == true)
    }

    @Test(arguments: HTTPClient.allCases)
    func overHTTPBytesAndHashesRoundTrip(_ client: HTTPClient) async throws {
        let server = try LocalInstanceServer(options: LocalInstance.Options(seedDemoData: false, log: { _ in }))
        defer { server.stop() }
        let url = URL(string: server.url)!
        let (service, record) = try await Self.service(
            client.transport(to: url, timeout: .seconds(10)), url: server.url)
        let bytes = Data((0..<2_000_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) })
        let name = "r\u{e9}sum\u{e9} ../final.bin"
        let metadata = try await service.upload(
            data: bytes, configuration: Self.config(record, name, "application/octet-stream")) { _, _, _ in }
        #expect(metadata.fileName == name)
        #expect(metadata.hash == Self.hex(bytes))
        let attachment = try await service.attachment(for: metadata.sysId)
        #expect(attachment.data == bytes)
        #expect(attachment.metadata.sizeInBytes == 2_000_000)
        let unknown = NowAttachmentUploadConfiguration(
            tableName: "incident", recordSysId: "ffffffffffffffffffffffffffffffff", fileName: "a", contentType: "text/plain",
            encryptionContext: nil)
        let refused = await Self.failure {
            try await service.upload(data: Data("a".utf8), configuration: unknown) { _, _, _ in }
        }
        #expect(refused.map(Self.status) == 404)
    }
}

/// The calls of a progress callback.
final class ProgressLog: Sendable {
    private let log = Mutex<[[Int64]]>([])
    var calls: [[Int64]] { log.withLock { $0 } }
    func add(_ written: Int64, _ total: Int64, _ expected: Int64) { log.withLock { $0.append([written, total, expected]) } }
}
