import Foundation
import LocalInstance
import NowData
import Testing

/// `NowAPIService`: the iOS SDK's calls to any API of the instance, async and with a completion handler, through
/// the same pipeline as the Table API's service.
@Suite struct NowAPIServiceTests {
    struct Endpoint: NowAPIEndpoint {
        let httpMethod: HTTPMethod
        let relativePath: String
        let requiresAuthentication: Bool
    }

    private func service(on instance: LocalInstance) -> NowAPIService {
        NowAPIService(
            configuration: NowServiceConfiguration(
                instanceURL: URL(string: "http://127.0.0.1")!, authentication: .basic(user: "admin", password: "admin"),
                transport: instance.transport))
    }

    @Test func theSDKsExampleCallsAnyAPIOfTheInstance() async throws {
        let instance = try LocalInstance(options: LocalInstance.Options(log: { _ in }))
        defer { instance.close() }
        let apiService = service(on: instance)
        let endpoint = Endpoint(httpMethod: .get, relativePath: "/api/now/stats/incident", requiresAuthentication: true)
        let response = try await apiService.data(
            for: endpoint, queryItems: ["sysparm_count": "true", "sysparm_query": "active=true"])
        #expect(response.statusCode == 200)
        #expect(response.headers["Content-Type"]?.hasPrefix("application/json") == true)
        let count = try JSONValue(json: response.data)["result"]?["stats"]?["count"]?.string
        let active = try #require(
            try JSONValue(json: try await makeService(on: instance).records(from: "incident", configuration: FetchConfiguration(filter: Filter(query: "active=true"), limit: 1000)))["result"]?.array)
        #expect(count == String(active.count))

        let completed = await withCheckedContinuation { continuation in
            apiService.data(for: endpoint, queryItems: ["sysparm_count": "true"]) { result in
                continuation.resume(returning: result)
            }
        }
        guard case .success(let whole) = completed else {
            Issue.record("the completion form failed: \(completed)")
            return
        }
        #expect(try JSONValue(json: whole.data)["result"]?["stats"]?["count"] != nil)
    }

    @Test func anotherStatusThrowsTheInstancesError() async throws {
        let instance = try LocalInstance(options: LocalInstance.Options(log: { _ in }))
        defer { instance.close() }
        let endpoint = Endpoint(
            httpMethod: .get, relativePath: "api/now/table/incident/no-such-record", requiresAuthentication: true)
        await #expect { _ = try await service(on: instance).data(for: endpoint) } throws: { error in
            guard case NowDataError.badResponse(let status) = error else { return false }
            return status.code == 404 && status.path == "/api/now/table/incident/no-such-record"
        }
        let anonymous = Endpoint(httpMethod: .get, relativePath: "/api/now/table/incident", requiresAuthentication: false)
        await #expect { _ = try await service(on: instance).data(for: anonymous) } throws: { error in
            if case NowDataError.badResponse(statusCode: 401) = error { true } else { false }
        }
    }

    @Test func aPostIsSentOnceAndOtherMethodsAreRetried() async throws {
        let transport = RecordingTransport { _, _ in json(503, "{}") }
        let configuration = NowServiceConfiguration(
            instanceURL: URL(string: "https://example.service-now.com")!, transport: transport,
            retryPolicy: RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(1), totalBudget: .seconds(3600)))
        let apiService = NowAPIService(configuration: configuration)
        await #expect(throws: NowDataError.self) {
            _ = try await apiService.data(
                for: Endpoint(httpMethod: .post, relativePath: "/api/x_acme/run", requiresAuthentication: true),
                httpHeaders: ["X-Trace": "1"], body: Data(#"{"go":true}"#.utf8))
        }
        #expect(transport.recorded.count == 1)
        #expect(transport.recorded.first?.headers["X-Trace"] == "1")
        await #expect(throws: NowDataError.self) {
            _ = try await apiService.data(
                for: Endpoint(httpMethod: .put, relativePath: "/api/x_acme/run", requiresAuthentication: true))
        }
        #expect(transport.recorded.count == 4)
        #expect(transport.recorded.map(\.method) == ["POST", "PUT", "PUT", "PUT"])
    }
}
