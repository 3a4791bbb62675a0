import Foundation

/// Uploads from and downloads to files, for attachments too large to hold in memory. The iOS SDK's surface moves
/// `Data` only; these add the same operations over file URLs. Over a transport that streams files
/// (``CurlTransport``, the local instance in process) the bytes go a chunk at a time, so memory stays flat
/// whatever the file weighs; over the others they are read or written whole.
extension NowAttachmentService {
    /// Uploads the file at `fileURL` and attaches it to the record the configuration names
    /// (`POST /api/now/attachment/file`), streamed from the file.
    ///
    /// ```swift
    /// let config = NowAttachmentUploadConfiguration(tableName: "incident", recordSysId: sysId,
    ///                                               fileName: "dump.bin", contentType: "application/octet-stream",
    ///                                               encryptionContext: nil)
    /// let metadata = try await attachmentService.upload(fileURL: url, configuration: config) { _, _, _ in }
    /// ```
    ///
    /// `progressUpdate` is called once the file has been sent, with all three counts equal to its size.
    ///
    /// - Throws: ``NowDataError``; `network` when the file cannot be read.
    public func upload(
        fileURL: URL, configuration: NowAttachmentUploadConfiguration, progressUpdate: @escaping ProgressUpdate
    ) async throws -> NowAttachmentMetadata {
        try await NowTableService.mappingErrors {
            let size: Int64
            do {
                size = (try FileManager.default.attributesOfItem(atPath: fileURL.path)[.size] as? NSNumber)?
                    .int64Value ?? 0
            } catch {
                throw NetworkServiceError.genericError("cannot read \(fileURL.path): \(error.localizedDescription)")
            }
            var request = prepareUpload(data: Data(), configuration: configuration)
            request.body = nil
            request.bodyFile = fileURL
            let response = try await pipeline.send(request, mode: .once)
            progressUpdate(size, size, size)
            return try NowTableService.decode(
                NowAttachmentMetadata.self, from: response.body, at: Constants.resultPath, coder: .default)
        }
    }

    /// Downloads the attachment `sysId` (`GET /api/now/attachment/{sys_id}/file`) into the file at `fileURL`,
    /// replacing it, and returns the metadata of its `X-Attachment-Metadata` header. The bytes go to a temporary
    /// file beside `fileURL` and are checked against the metadata's SHA-256 hash (unless `validateAttachment` is
    /// false) before it takes `fileURL`'s name: a download that fails or does not match leaves `fileURL` as it
    /// was.
    ///
    /// ```swift
    /// let metadata = try await attachmentService.attachment(for: sysId, writingTo: url)
    /// ```
    ///
    /// - Throws: ``NowDataError/attachmentValidation`` when the bytes do not match the hash,
    ///   ``NowDataError/missingAttachmentMetadata`` when the header is absent, `badResponse(statusCode: 404)`
    ///   when there is no such attachment, `network` when the file cannot be written.
    public func attachment(for sysId: SysID, writingTo fileURL: URL, validateAttachment: Bool = true) async throws
        -> NowAttachmentMetadata
    {
        try await NowTableService.mappingErrors {
            let partial = fileURL.deletingLastPathComponent().appendingPathComponent(
                "." + fileURL.lastPathComponent + "." + UUID().uuidString + ".download", isDirectory: false)
            defer { try? FileManager.default.removeItem(at: partial) }
            var request = try NowHTTPRequest(
                method: "GET", path: Self.path(sysId) + "/file", headers: ["Accept": "*/*"])
            request.responseBodyFile = partial
            let response = try await pipeline.send(request, mode: .idempotent)
            guard let header = response.headers[NowAttachment.attachmentMetadataHeaderKey] else {
                throw NowDataError.missingAttachmentMetadata
            }
            let metadata = try NowTableService.decode(
                NowAttachmentMetadata.self, from: Data(header.utf8), at: "", coder: .default)
            if validateAttachment {
                // The transport's digest of the bytes as they arrived, else the file's, read back.
                let digest = try response.bodyFileSHA256 ?? Self.hash(of: partial)
                guard let expected = metadata.hash?.lowercased(), digest == expected else {
                    throw NowDataError.attachmentValidation
                }
            }
            // rename(2) replaces the file at once, never leaving a half-written one under its name.
            guard rename(partial.path, fileURL.path) == 0 else {
                throw NetworkServiceError.genericError(
                    "cannot write \(fileURL.path): \(String(cString: strerror(errno)))")
            }
            return metadata
        }
    }

    /// ``upload(fileURL:configuration:progressUpdate:)`` with a completion handler.
    public func upload(
        fileURL: URL, configuration: NowAttachmentUploadConfiguration, progressUpdate: @escaping ProgressUpdate,
        completion: @escaping @Sendable (Result<NowAttachmentMetadata, NowDataError>) -> Void
    ) {
        RequestPipeline.complete(completion) { [self] in
            try await upload(fileURL: fileURL, configuration: configuration, progressUpdate: progressUpdate)
        }
    }

    /// ``attachment(for:writingTo:validateAttachment:)`` with a completion handler.
    public func attachment(
        for sysId: SysID, writingTo fileURL: URL, validateAttachment: Bool = true,
        completion: @escaping @Sendable (Result<NowAttachmentMetadata, NowDataError>) -> Void
    ) {
        RequestPipeline.complete(completion) { [self] in
            try await attachment(for: sysId, writingTo: fileURL, validateAttachment: validateAttachment)
        }
    }

    /// The SHA-256 digest of the file at `url` in lowercase hexadecimal, read a megabyte at a time.
    static func hash(of url: URL) throws -> String {
        let handle: FileHandle
        do {
            handle = try FileHandle(forReadingFrom: url)
        } catch {
            throw NetworkServiceError.genericError("cannot read \(url.path): \(error.localizedDescription)")
        }
        defer { try? handle.close() }
        var hasher = SHA256()
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            hasher.update(chunk)
        }
        return hasher.finalizeHex()
    }
}
