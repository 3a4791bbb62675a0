import Foundation

/// The completion-handler forms of the operations: each starts at once and calls `completion` exactly once, on a
/// task of Swift's cooperative thread pool (not the main queue).
extension NowAttachmentService {
    /// ``upload(data:configuration:progressUpdate:)`` with a completion handler.
    ///
    /// ```swift
    /// attachmentService.upload(data: data, configuration: config, progressUpdate: { _, _, _ in }) { result in
    ///     if case .success(let metadata) = result { print(metadata.sysId) }
    /// }
    /// ```
    public func upload(
        data: Data, configuration: NowAttachmentUploadConfiguration, progressUpdate: @escaping ProgressUpdate,
        completion: @escaping @Sendable (Result<NowAttachmentMetadata, NowDataError>) -> Void
    ) {
        RequestPipeline.complete(completion) { [self] in
            try await upload(data: data, configuration: configuration, progressUpdate: progressUpdate)
        }
    }

    /// ``attachment(for:validateAttachment:)`` with a completion handler.
    public func attachment(
        for sysId: SysID, validateAttachment: Bool = true,
        completion: @escaping @Sendable (Result<NowAttachment, NowDataError>) -> Void
    ) {
        RequestPipeline.complete(completion) { [self] in
            try await attachment(for: sysId, validateAttachment: validateAttachment)
        }
    }

    /// ``attachmentMetadata(for:)`` with a completion handler.
    public func attachmentMetadata(
        for sysId: SysID, completion: @escaping @Sendable (Result<NowAttachmentMetadata, NowDataError>) -> Void
    ) {
        RequestPipeline.complete(completion) { [self] in try await attachmentMetadata(for: sysId) }
    }

    /// ``attachmentMetadata(filter:limit:)`` with a completion handler.
    public func attachmentMetadata(
        filter: Filter? = nil, limit: Int? = nil,
        completion: @escaping @Sendable (Result<[NowAttachmentMetadata], NowDataError>) -> Void
    ) {
        RequestPipeline.complete(completion) { [self] in try await attachmentMetadata(filter: filter, limit: limit) }
    }

    /// ``delete(sysId:)`` with a completion handler.
    public func delete(sysId: SysID, completion: @escaping @Sendable (Result<Void, NowDataError>) -> Void) {
        RequestPipeline.complete(completion) { [self] in try await delete(sysId: sysId) }
    }
}
