import Foundation

/// Loads rows into import set tables through the Import Set API (`/api/now/import/{staging_table}`), which
/// transforms each into its target table through the table's transform maps.
///
/// ```swift
/// let imports = NowImportSetService(configuration: configuration)
/// let result = try await imports.insert(["u_name": "lnx-web-09", "u_os": "Linux Debian"],
///                                       into: "u_cmdb_ci_server_import")
/// let loaded = try await imports.insertMultiple([["u_name": "a"], ["u_name": "b"]], into: "u_cmdb_ci_server_import")
/// ```
///
/// Every operation comes as `async throws` and with a completion handler; both fail with ``NowDataError``
/// only. Inserts are sent once (a second send would load the row twice); reads are retried as the
/// configuration's ``RetryPolicy`` says.
public final class NowImportSetService: Sendable {
    /// The configuration the service was created with.
    public let configuration: NowServiceConfiguration
    /// The core services associated with this service, if any.
    public let coreServiceProvider: NowCoreServiceProviding?
    let pipeline: RequestPipeline

    /// Creates an import set service.
    public init(configuration: NowServiceConfiguration, coreServiceProvider: NowCoreServiceProviding? = nil) {
        self.configuration = configuration
        self.coreServiceProvider = coreServiceProvider
        pipeline = RequestPipeline(configuration: configuration, coreServiceProvider: coreServiceProvider)
    }

    /// The sys_ids of what an `insertMultiple` made: the import set and the multiple import set holding it.
    public struct MultipleImport: Sendable, Hashable {
        public let importSetId: SysID
        public let multiImportSetId: SysID
    }

    /// Loads one row (`{"column": "value"}`) into `stagingTable` and transforms it (`POST /import/{table}`).
    public func insert(_ row: [FieldName: String], into stagingTable: String) async throws -> NowImportSetResult {
        try await NowTableService.mappingErrors {
            let response = try await pipeline.send(
                try Self.post(try Self.path(stagingTable), Self.object(row)), mode: .once)
            return try NowImportSetResult(json: try Self.json(response.body))
        }
    }

    /// Loads `rows` into `stagingTable` as one import set (`POST /import/{table}/insertMultiple`); each row's
    /// outcome is on the row, in the staging table.
    public func insertMultiple(_ rows: [[FieldName: String]], into stagingTable: String) async throws
        -> MultipleImport
    {
        try await NowTableService.mappingErrors {
            let response = try await pipeline.send(
                try Self.insertMultipleRequest(rows, into: stagingTable), mode: .once)
            guard let object = try Self.json(response.body).object,
                let importSet = object["import_set_id"]?.string, let multi = object["multi_import_set_id"]?.string
            else { throw NowDataError.cannotParseResponse }
            return MultipleImport(importSetId: importSet, multiImportSetId: multi)
        }
    }

    /// The request ``insertMultiple(_:into:)`` sends: what a dry run records instead.
    public static func insertMultipleRequest(_ rows: [[FieldName: String]], into stagingTable: String) throws
        -> NowHTTPRequest
    {
        let body: JSONObject = ["records": .array(rows.map { .object(object($0)) })]
        return try post(try path(stagingTable, "insertMultiple"), body)
    }

    /// The outcome of the row `sysId` of `stagingTable` (`GET /import/{table}/{sys_id}`).
    public func result(of sysId: SysID, in stagingTable: String) async throws -> NowImportSetResult {
        try await NowTableService.mappingErrors {
            let request = NowHTTPRequest(method: "GET", path: try Self.path(stagingTable, sysId))
            let response = try await pipeline.send(request, mode: .idempotent)
            return try NowImportSetResult(json: try Self.json(response.body))
        }
    }

    /// `/api/now/import/` and the segments, percent-encoded; an empty one is ``NowDataError/invalidURL``.
    static func path(_ segments: String...) throws -> String {
        guard !segments.contains(where: \.isEmpty) else { throw NowDataError.invalidURL }
        return "/api/now/import/" + segments.map(NowHTTPRequest.percentEncodedPathSegment).joined(separator: "/")
    }

    private static func object(_ row: [FieldName: String]) -> JSONObject {
        JSONObject(row.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.string($0.value)) })
    }

    private static func post(_ path: String, _ body: JSONObject) throws -> NowHTTPRequest {
        NowHTTPRequest(
            method: "POST", path: path, headers: ["Content-Type": "application/json"],
            body: JSONValue.object(body).jsonData())
    }

    private static func json(_ body: Data) throws -> JSONValue {
        guard let json = try? JSONValue(json: body) else { throw NowDataError.cannotParseResponse }
        return json
    }
}
