import Foundation

/// Uploads, downloads, lists and deletes the attachments of records through the Attachment API
/// (`/api/now/attachment`), as the iOS SDK's NowData does.
///
/// ```swift
/// guard let coreService = NowSDK.core() else { throw NowServiceError.sdkNotConfigured }
/// guard let instanceUrl = URL(string: "https://example.service-now.com"),
///       let serviceConfig = NowSDK.makeServiceConfiguration(for: instanceUrl) else {
///     throw NowServiceError.serviceConfigurationInvalid
/// }
/// let attachmentService = NowAttachmentService(configuration: serviceConfig, coreServiceProvider: coreService)
/// let config = NowAttachmentUploadConfiguration(tableName: "incident", recordSysId: sysId, fileName: "notes.txt",
///                                               contentType: "text/plain", encryptionContext: nil)
/// let metadata = try await attachmentService.upload(data: Data("hello".utf8), configuration: config) { _, _, _ in }
/// let attachment = try await attachmentService.attachment(for: metadata.sysId)   // validated against its hash
/// ```
///
/// Every operation comes as `async throws` and with a completion handler; both fail with ``NowDataError``
/// only. Reads and deletes are retried as the configuration's ``RetryPolicy`` says; an upload is sent once (the
/// instance names the new attachment, so a second send would attach the file twice). The bytes travel in
/// memory, as `Data`, in both directions.
public final class NowAttachmentService: Sendable {
    /// Reports an upload's progress: the bytes just written, those written so far and the total.
    public typealias ProgressUpdate = @Sendable (
        _ bytesWritten: Int64, _ totalBytesWritten: Int64, _ totalBytesExpectedToWrite: Int64
    ) -> Void

    /// The configuration the service was created with.
    public let configuration: NowServiceConfiguration
    /// The core services associated with this service, if any.
    public let coreServiceProvider: NowCoreServiceProviding?
    let pipeline: RequestPipeline

    /// The Attachment API's path.
    static let basePath = "/api/now/attachment"

    /// Creates an attachment service.
    ///
    /// - Parameters:
    ///   - configuration: the instance and how to reach it.
    ///   - coreServiceProvider: core services to associate; their authentication is used when the
    ///     configuration's is ``NowAuthentication/none``.
    public init(configuration: NowServiceConfiguration, coreServiceProvider: NowCoreServiceProviding? = nil) {
        self.configuration = configuration
        self.coreServiceProvider = coreServiceProvider
        pipeline = RequestPipeline(configuration: configuration, coreServiceProvider: coreServiceProvider)
    }

    // MARK: - Upload

    /// Uploads `data` and attaches it to the record the configuration names (`POST /api/now/attachment/file`).
    ///
    /// `progressUpdate` is called when the bytes have been sent, with all three counts equal to their size (the
    /// transports send a body in one piece).
    ///
    /// - Returns: the new attachment's metadata, its SHA-256 `hash` among it.
    /// - Throws: ``NowDataError``; `badResponse` with the instance's message for an unknown table or record.
    public func upload(
        data: Data, configuration: NowAttachmentUploadConfiguration, progressUpdate: @escaping ProgressUpdate
    ) async throws -> NowAttachmentMetadata {
        try await NowTableService.mappingErrors {
            let request = prepareUpload(data: data, configuration: configuration)
            let response = try await pipeline.send(request, mode: .once)
            let total = Int64(data.count)
            progressUpdate(total, total, total)
            return try NowTableService.decode(
                NowAttachmentMetadata.self, from: response.body, at: Constants.resultPath, coder: .default)
        }
    }

    // MARK: - Download

    /// Downloads the attachment `sysId` (`GET /api/now/attachment/{sys_id}/file`): its bytes and the metadata of
    /// its `X-Attachment-Metadata` header, validated against the metadata's SHA-256 hash unless
    /// `validateAttachment` is false (``NowAttachment/validate()`` does it later).
    ///
    /// ```swift
    /// let nowAttachment = try await attachmentService.attachment(for: sysId, validateAttachment: false)
    /// ```
    ///
    /// - Throws: ``NowDataError/attachmentValidation`` when the bytes do not match the hash,
    ///   ``NowDataError/missingAttachmentMetadata`` when the header is absent, ``NowDataError/missingSysID`` for
    ///   an empty sys_id, `badResponse(statusCode: 404)` when there is no such attachment.
    public func attachment(for sysId: SysID, validateAttachment: Bool = true) async throws -> NowAttachment {
        try await NowTableService.mappingErrors {
            let request = try NowHTTPRequest(
                method: "GET", path: Self.path(sysId) + "/file", headers: ["Accept": "*/*"])
            let response = try await pipeline.send(request, mode: .idempotent)
            guard let header = response.headers[NowAttachment.attachmentMetadataHeaderKey] else {
                throw NowDataError.missingAttachmentMetadata
            }
            let metadata = try NowTableService.decode(
                NowAttachmentMetadata.self, from: Data(header.utf8), at: "", coder: .default)
            let attachment = NowAttachment(metadata: metadata, data: response.body)
            if validateAttachment { try attachment.validate() }
            return attachment
        }
    }

    // MARK: - Metadata

    /// The metadata of the attachment `sysId` (`GET /api/now/attachment/{sys_id}`).
    ///
    /// ```swift
    /// let metadata = try await attachmentService.attachmentMetadata(for: sysId)
    /// ```
    ///
    /// - Throws: ``NowDataError``; `badResponse(statusCode: 404)` when there is no such attachment.
    public func attachmentMetadata(for sysId: SysID) async throws -> NowAttachmentMetadata {
        try await NowTableService.mappingErrors {
            let request = try NowHTTPRequest(method: "GET", path: Self.path(sysId))
            let response = try await pipeline.send(request, mode: .idempotent)
            return try NowTableService.decode(
                NowAttachmentMetadata.self, from: response.body, at: Constants.resultPath, coder: .default)
        }
    }

    /// The metadata of the attachments `filter` selects (all when nil), at most `limit` of them (the instance's
    /// page size when nil), from `GET /api/now/attachment`.
    ///
    /// ```swift
    /// let filter = Filter(query: "table_name=incident^table_sys_id=\(sysId)")
    /// let metadata = try await attachmentService.attachmentMetadata(filter: filter, limit: 10)
    /// ```
    public func attachmentMetadata(filter: Filter? = nil, limit: Int? = nil) async throws -> [NowAttachmentMetadata] {
        try await NowTableService.mappingErrors {
            let request = NowHTTPRequest(
                method: "GET", path: Self.basePath, queryItems: FetchConfiguration(filter, limit, nil).queryItems)
            let response = try await pipeline.send(request, mode: .idempotent)
            return try NowTableService.decode(
                [NowAttachmentMetadata].self, from: response.body, at: Constants.resultPath, coder: .default)
        }
    }

    /// A paginator over the metadata of the attachments `filter` selects, `limit` a page (20 when nil),
    /// following the Attachment API's `Link` header.
    ///
    /// ```swift
    /// let paginator = attachmentService.attachmentMetadataPaginator(filter: Filter(query: query), limit: 10)
    /// for try await page in paginator { print(page.map(\.fileName)) }
    /// ```
    public func attachmentMetadataPaginator(filter: Filter? = nil, limit: Int? = nil)
        -> Paginator<[NowAttachmentMetadata]>
    {
        Paginator(pipeline: pipeline, path: Self.basePath, configuration: FetchConfiguration(filter, limit, nil)) {
            data in
            try NowTableService.decode(
                [NowAttachmentMetadata].self, from: data, at: Constants.resultPath, coder: .default)
        }
    }

    // MARK: - Delete

    /// Deletes the attachment `sysId` (`DELETE /api/now/attachment/{sys_id}`).
    ///
    /// ```swift
    /// try await attachmentService.delete(sysId: sysId)
    /// ```
    ///
    /// - Throws: ``NowDataError``; `badResponse(statusCode: 404)` when there is no such attachment.
    public func delete(sysId: SysID) async throws {
        try await NowTableService.mappingErrors {
            let request = try NowHTTPRequest(method: "DELETE", path: Self.path(sysId))
            _ = try await pipeline.send(request, mode: .delete)
        }
    }

    // MARK: - Requests

    /// The upload's request: the bytes as the body, the configuration as query parameters and `Content-Type`.
    func prepareUpload(data: Data, configuration: NowAttachmentUploadConfiguration) -> NowHTTPRequest {
        var items = [
            URLQueryItem(name: "table_name", value: configuration.tableName),
            URLQueryItem(name: "table_sys_id", value: configuration.recordSysId),
            URLQueryItem(name: "file_name", value: configuration.fileName),
        ]
        if let context = configuration.encryptionContext {
            items.append(URLQueryItem(name: "encryption_context", value: context))
        }
        return NowHTTPRequest(
            method: "POST", path: Self.basePath + "/file", queryItems: items,
            headers: ["Content-Type": configuration.contentType], body: data)
    }

    /// `/api/now/attachment/{sys_id}`, the sys_id encoded as one segment.
    static func path(_ sysId: SysID) throws -> String {
        guard !sysId.isEmpty else { throw NowDataError.missingSysID }
        return basePath + "/" + NowHTTPRequest.percentEncodedPathSegment(sysId)
    }
}
