import Foundation
import LocalInstance
import NowData

/// An in-memory local instance without demo data, quiet.
func makeLocalInstance(seedDemoData: Bool = false, tokenLifetime: Duration = .seconds(1799)) throws -> LocalInstance {
    try LocalInstance(
        options: LocalInstance.Options(
            seedDemoData: seedDemoData, tokenLifetime: tokenLifetime, log: { _ in }, passwordIterations: 1_000))
}

/// A service on `instance`'s in-process transport, as admin, with fast retries.
func makeService(
    on instance: LocalInstance, authentication: NowAuthentication = .basic(user: "admin", password: "admin")
) -> NowTableService {
    makeService(instance.transport, authentication: authentication)
}

/// How many incidents have `shortDescription`.
func countIncidents(_ shortDescription: String, through service: NowTableService) async throws -> Int {
    let data = try await service.records(
        from: "incident",
        configuration: FetchConfiguration(filter: Filter(query: "short_description=\(shortDescription)")))
    return data.convertToRecords().count
}

/// The completion-handler form of an operation, awaited.
func completed<T: Sendable>(_ start: (@escaping @Sendable (Result<T, NowDataError>) -> Void) -> Void) async -> Result<
    T, NowDataError
> {
    await withCheckedContinuation { continuation in
        start { continuation.resume(returning: $0) }
    }
}

/// An incident as the demo tables hold it.
struct TicketModel: SysIdentifiableModel, Equatable {
    var sysId: String = ""
    var shortDescription: String
    var urgency: String?
}
