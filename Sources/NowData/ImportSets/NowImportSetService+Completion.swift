/// The completion-handler forms of ``NowImportSetService``: each calls `completion` once, on the cooperative
/// thread pool.
extension NowImportSetService {
    /// ``insert(_:into:)`` with a completion handler.
    public func insert(
        _ row: [FieldName: String], into stagingTable: String,
        completion: @escaping @Sendable (Result<NowImportSetResult, NowDataError>) -> Void
    ) {
        Task { completion(await NowDataError.result { try await self.insert(row, into: stagingTable) }) }
    }

    /// ``insertMultiple(_:into:)`` with a completion handler.
    public func insertMultiple(
        _ rows: [[FieldName: String]], into stagingTable: String,
        completion: @escaping @Sendable (Result<MultipleImport, NowDataError>) -> Void
    ) {
        Task { completion(await NowDataError.result { try await self.insertMultiple(rows, into: stagingTable) }) }
    }

    /// ``result(of:in:)`` with a completion handler.
    public func result(
        of sysId: SysID, in stagingTable: String,
        completion: @escaping @Sendable (Result<NowImportSetResult, NowDataError>) -> Void
    ) {
        Task { completion(await NowDataError.result { try await self.result(of: sysId, in: stagingTable) }) }
    }
}
