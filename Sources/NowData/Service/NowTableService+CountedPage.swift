import Foundation

extension NowTableService {
    /// One page of the records the configuration selects, starting `offset` records in, with the instance's count
    /// of every record the selection matches (`X-Total-Count`, nil when the answer has none): the count tells a
    /// page that is short because it is the last from one that the instance's read ACLs thinned after the limit.
    ///
    /// - Throws: ``NowDataError``.
    package func countedRecords(from tableName: String, configuration: FetchConfiguration, offset: Int)
        async throws -> (data: Data, total: Int?)
    {
        try await Self.mappingErrors {
            var prepared = try prepareRecords(from: tableName, configuration: configuration)
            prepared.request.queryItems.removeAll { $0.name == "sysparm_no_count" || $0.name == "sysparm_offset" }
            if offset > 0 { prepared.request.queryItems.append(URLQueryItem(name: "sysparm_offset", value: String(offset))) }
            let response = try await pipeline.send(prepared.request, mode: prepared.mode)
            let total = response.headers["X-Total-Count"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            return (try Self.validated(response.body), total)
        }
    }
}
