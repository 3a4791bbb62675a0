import Foundation
import LocalInstance
import NowData
import Testing

/// `NowTableService.aggregate` against the local instance: the request it sends and the typed result, whole and
/// grouped, in process and over HTTP.
@Suite struct NowTableServiceAggregateTests {
    static func seed(_ service: NowTableService) async throws {
        for (name, classification, ram) in [("a", "Production", 1024), ("b", "Production", 2048), ("c", "Test", 512)] {
            _ = try await service.createRecord(
                with: ["name": .string(name), "classification": .string(classification), "ram": .int(ram)],
                in: "cmdb_ci_server")
        }
    }

    @Test func theQueryBecomesTheAggregateAPIsParameters() {
        let query = NowAggregateQuery(
            filter: Filter(query: "active=true"), count: true, sumFields: ["ram"], averageFields: ["ram", "cpu_count"],
            minFields: ["ram"], maxFields: ["ram"], groupBy: ["classification"], having: "count^sys_id^>^1",
            orderBy: "COUNT^DESC", displayValue: true)
        #expect(
            query.queryItems.map { "\($0.name)=\($0.value ?? "")" } == [
                "sysparm_query=active=true", "sysparm_count=true", "sysparm_sum_fields=ram",
                "sysparm_avg_fields=ram,cpu_count", "sysparm_min_fields=ram", "sysparm_max_fields=ram",
                "sysparm_group_by=classification", "sysparm_having=count^sys_id^>^1", "sysparm_order_by=COUNT^DESC",
                "sysparm_display_value=true",
            ])
    }

    @Test func wholeAndGroupedInProcess() async throws {
        let service = makeService(on: try makeLocalInstance())
        try await Self.seed(service)
        let whole = try await service.aggregate(
            "cmdb_ci_server", NowAggregateQuery(sumFields: ["ram"], averageFields: ["ram"], maxFields: ["name"]))
        #expect(
            whole
                == NowAggregateResult(
                    stats: .init(count: 3, sum: ["ram": "3584"], average: ["ram": "1194.6666666666667"], max: ["name": "c"]),
                    groups: []))
        let grouped = try await service.aggregate(
            "cmdb_ci_server",
            NowAggregateQuery(sumFields: ["ram"], groupBy: ["classification"], orderBy: "COUNT^DESC", displayValue: true))
        #expect(
            grouped
                == NowAggregateResult(
                    stats: nil,
                    groups: [
                        .init(
                            fields: [.init(field: "classification", value: "Production", displayValue: "Production")],
                            stats: .init(count: 2, sum: ["ram": "3072"])),
                        .init(
                            fields: [.init(field: "classification", value: "Test", displayValue: "Test")],
                            stats: .init(count: 1, sum: ["ram": "512"])),
                    ]))
        let result = await completed { service.aggregate("u_none", NowAggregateQuery(), completion: $0) }
        guard case .failure(.badResponse(let status)) = result else {
            Issue.record("expected a bad response, got \(result)")
            return
        }
        #expect(status.code == 400)
        #expect(status.message == "Invalid table u_none")
    }

    @Test(arguments: HTTPClient.allCases)
    func overHTTP(_ client: HTTPClient) async throws {
        let server = try LocalInstanceServer(options: LocalInstance.Options(seedDemoData: false, log: { _ in }))
        defer { server.stop() }
        let url = URL(string: server.url)!
        let service = NowTableService(
            configuration: NowServiceConfiguration(
                instanceURL: url, authentication: .basic(user: "admin", password: "admin"),
                transport: client.transport(to: url, timeout: .seconds(10))))
        try await Self.seed(service)
        let result = try await service.aggregate(
            "cmdb_ci_server", NowAggregateQuery(filter: Filter(query: "ram>=1024"), minFields: ["ram"]))
        #expect(result == NowAggregateResult(stats: .init(count: 2, min: ["ram": "1024"]), groups: []))
    }
}
