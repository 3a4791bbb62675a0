import Foundation

/// Aggregates through the Aggregate API (`GET /api/now/stats/{table}`).
extension NowTableService {
    /// Counts, sums, averages, minimums and maximums of the records of `tableName` the query selects, whole or
    /// per group.
    ///
    /// ```swift
    /// let result = try await service.aggregate(
    ///     "incident", NowAggregateQuery(filter: Filter(query: "active=true"), groupBy: ["priority"]))
    /// for group in result.groups { print(group.fields.map(\.value), group.stats.count ?? 0) }
    /// ```
    ///
    /// - Throws: ``NowDataError``; `badResponse` with the instance's message for an unknown table or field.
    public func aggregate(_ tableName: String, _ query: NowAggregateQuery) async throws -> NowAggregateResult {
        try await Self.mappingErrors {
            guard !tableName.isEmpty else { throw NowDataError.invalidURL }
            let request = NowHTTPRequest(
                method: "GET", path: "/api/now/stats/" + NowHTTPRequest.percentEncodedPathSegment(tableName),
                queryItems: query.queryItems)
            return try NowAggregateResult(body: try await pipeline.send(request, mode: .idempotent).body)
        }
    }

    /// ``aggregate(_:_:)`` with a completion handler, called once on the cooperative thread pool.
    public func aggregate(
        _ tableName: String, _ query: NowAggregateQuery,
        completion: @escaping @Sendable (Result<NowAggregateResult, NowDataError>) -> Void
    ) {
        Task {
            do {
                completion(.success(try await aggregate(tableName, query)))
            } catch {
                completion(.failure(RequestPipeline.networkError(error)))
            }
        }
    }
}
