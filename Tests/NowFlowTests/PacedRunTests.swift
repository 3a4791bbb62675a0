import Foundation
import LocalInstance
import NowData
import Synchronization
import Testing

@testable import NowFlow

/// Issue 26: a run lives within the instance's rate-limit rule, pacing itself by the `X-RateLimit-*` headers
/// instead of meeting 429s, over HTTP against a served instance whose rule counts in one-second windows.
@Suite struct PacedRunTests {
    /// The statuses each request (method, path and query) was answered with, in order.
    final class Answers: Sendable {
        private let statuses = Mutex<[String: [Int]]>([:])
        func note(_ request: NowHTTPRequest, _ status: Int) {
            let key = request.method + " " + request.path + "?" + request.queryItems.map { "\($0)" }.joined(separator: "&")
            statuses.withLock { $0[key, default: []].append(status) }
        }
        var all: [String: [Int]] { statuses.withLock { $0 } }
    }

    @Test func twoThousandUpdatesUnderARateRuleAreEachMadeOnceAndNoRequestIsRefusedTwice() async throws {
        var options = LocalInstance.Options(
            adminPassword: "secret", seedDemoData: false, log: { _ in }, passwordIterations: 1_000)
        options.limits = PlatformLimits(rateRules: true, rateWindow: .seconds(1))
        let server = try LocalInstanceServer(options: options)
        defer { server.stop() }
        // The records and the rule go in process: the limits are the listener's.
        let local = server.instance.transport(actingAs: "admin")
        func post(_ table: String, _ body: String) async throws {
            let response = try await local.send(
                NowHTTPRequest(
                    method: "POST", path: "/api/now/table/\(table)", headers: ["Content-Type": "application/json"],
                    body: Data(body.utf8)))
            #expect(response.statusCode == 201)
        }
        for index in 0..<2_000 { try await post("cmn_location", #"{"name":"bulk-\#(index)"}"#) }
        try await post("sys_rate_limit_rules", #"{"name":"Bulk","rate_limit":"200","type":"all_users"}"#)

        let job = try JobFile.parse(
            """
            name: Bulk update
            steps:
              - id: all
                query: { table: cmn_location, query: "nameSTARTSWITHbulk-", fields: [sys_id] }
              - id: each
                foreach: steps.all.records
                as: location
                parallel: 4
                steps:
                  - update: { table: cmn_location, sys_id: "${location.sys_id}", fields: { city: Paced } }
            """, file: "bulk.yaml")
        let answers = Answers()
        let curl = CurlTransport(instanceURL: try #require(URL(string: server.url)))
        var run = RunOptions(
            instanceURL: try #require(URL(string: server.url)),
            transport: ClosureTransport { request in
                let response = try await curl.send(request)
                answers.note(request, response.statusCode)
                return response
            }, authentication: .basic(user: "admin", password: "secret"), environment: [:])
        run.pacer = RequestPacer()
        let result = await JobRunner(job: job, options: run).run()
        #expect(result.status == .passed, "\(result.steps.map(\.message))")

        let statuses = answers.all
        #expect(statuses.values.filter { $0.filter { $0 == 429 }.count > 1 }.isEmpty, "refused twice")
        // Paced, not colliding: at most the requests in flight when a window turned meet the rule.
        #expect(statuses.values.joined().filter { $0 == 429 }.count <= 4)
        #expect(statuses.keys.filter { $0.hasPrefix("PATCH ") || $0.hasPrefix("PUT ") }.count == 2_000)

        let check = try await local.send(
            NowHTTPRequest(
                method: "GET", path: "/api/now/stats/cmn_location",
                queryItems: [
                    URLQueryItem(name: "sysparm_count", value: "true"),
                    URLQueryItem(name: "sysparm_group_by", value: "city,sys_mod_count"),
                ]))
        #expect(
            String(decoding: check.body, as: UTF8.self)
                == #"{"result":[{"stats":{"count":"2000"},"groupby_fields":[{"field":"city","value":"Paced"},{"field":"sys_mod_count","value":"1"}]}]}"#
        )
    }

    @Test func aPageCutOffByTheTransactionQuotaIsFetchedAgainInSmallerPages() async throws {
        var options = LocalInstance.Options(
            adminPassword: "secret", seedDemoData: false, log: { _ in }, passwordIterations: 1_000)
        // The quota is counted on a clock that moves a millisecond each time the instance reads it (every 100 SQLite
        // instructions): a page of 4,000 whole records takes about 2,000 readings, one of 1,000 about 650, on any
        // machine under any load.
        options.limits = PlatformLimits(apiQuota: .milliseconds(800), quotaClock: SteppingClock(step: .milliseconds(1)))
        let server = try LocalInstanceServer(options: options)
        defer { server.stop() }
        let local = server.instance.transport(actingAs: "admin")
        for index in 0..<4_000 {
            let response = try await local.send(
                NowHTTPRequest(
                    method: "POST", path: "/api/now/table/cmn_location", headers: ["Content-Type": "application/json"],
                    body: Data(#"{"name":"quota-\#(index)","street":"\#(index) Main Street","city":"Springfield"}"#.utf8)))
            #expect(response.statusCode == 201)
        }
        let job = try JobFile.parse(
            """
            name: Export
            steps:
              - id: all
                query: { table: cmn_location, query: "nameSTARTSWITHquota-", page_size: 4000, collect: true }
            """, file: "export.yaml")
        let answers = Answers()
        let curl = CurlTransport(instanceURL: try #require(URL(string: server.url)))
        let run = RunOptions(
            instanceURL: try #require(URL(string: server.url)),
            transport: ClosureTransport { request in
                let response = try await curl.send(request)
                answers.note(request, response.statusCode)
                return response
            }, authentication: .basic(user: "admin", password: "secret"), environment: [:])
        let result = await JobRunner(job: job, options: run).run()
        #expect(result.status == .passed, "\(result.steps.map(\.message))")
        // Each page cut off counts as a retry of the step.
        #expect(result.steps.first?.message.hasPrefix("4000 records from cmn_location, keyed by sys_id, retried ") == true)
        let records = try #require(result.results["all"]?["records"]?.array)
        #expect(records.count == 4_000)
        #expect(Set(records.compactMap { $0["sys_id"]?.string }).count == 4_000)
        let statuses = answers.all.values.joined()
        #expect(statuses.contains(500), "\(answers.all.keys.sorted())")
    }
}
