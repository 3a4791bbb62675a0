import Foundation
import LocalInstance
import NowData
import Synchronization

@testable import NowFlow

/// Runs job texts on a fresh in-memory local instance, in process, and records the events.
final class RunHarness: Sendable {
    let instance: LocalInstance
    private let events = Mutex<[RunEvent]>([])
    private let sent = Mutex<[NowHTTPRequest]>([])

    init() throws {
        instance = try LocalInstance(options: LocalInstance.Options(log: { _ in }))
    }

    deinit {
        instance.close()
    }

    /// Runs `text` as a job file; `answering`, when given, changes each of the instance's answers before the run
    /// reads it.
    func run(
        _ text: String, dryRun: Bool = false, environment: [String: String] = [:], variables: [String: String] = [:],
        retryPolicy: RetryPolicy = .none, file: String = "job.yaml", checkingNames: Bool = false, shard: Shard? = nil,
        answering: (@Sendable (NowHTTPRequest, NowHTTPResponse) throws -> NowHTTPResponse)? = nil
    ) async throws -> RunResult {
        let job = try JobFile.parse(text, file: file)
        var options = RunOptions.inProcess(on: instance)
        let transport = instance.transport
        options.transport = ClosureTransport { [self] request in
            sent.withLock { $0.append(request) }
            let response = try await transport.send(request)
            return try answering?(request, response) ?? response
        }
        options.variables = variables
        options.environment = environment
        options.dryRun = dryRun
        options.retryPolicy = retryPolicy
        options.shard = shard
        options.onEvent = { [self] event in self.events.withLock { $0.append(event) } }
        if checkingNames {
            // As `nowflow run` does: the check's dictionary is kept for the run's own checks.
            _ = await JobRunner(job: job, options: options).checkNames()
        }
        return await JobRunner(job: job, options: options).run()
    }

    /// The progress lines so far, with durations replaced by `N ms` and sys_ids by `<sys_id>`.
    var lines: [String] {
        events.withLock { events in
            events.compactMap { event in
                if case .stepFinished(let outcome) = event {
                    Self.normalized(outcome.progressLine(color: false))
                } else {
                    nil
                }
            }
        }
    }

    /// Every request the runs sent to the instance, in order.
    var requests: [NowHTTPRequest] {
        sent.withLock { $0 }
    }

    /// The `fetched` counts of every paging event.
    var pages: [Int] {
        events.withLock { events in
            events.compactMap { event in
                if case .paging(_, let fetched, _) = event { fetched } else { nil }
            }
        }
    }

    /// Replaces durations and 32-hex sys_ids, which change from run to run.
    static func normalized(_ text: String) -> String {
        text.replacingOccurrences(of: #"\(\d+ ms\)"#, with: "(N ms)", options: .regularExpression)
            .replacingOccurrences(of: #"[0-9a-f]{32}"#, with: "<sys_id>", options: .regularExpression)
    }

    /// How many records of `table` match `query`, asked directly of the instance.
    func count(_ table: String, _ query: String) throws -> Int {
        try sysIDs(table, query).count
    }

    /// The sys_ids of the records of `table` that match `query`, asked directly of the instance.
    func sysIDs(_ table: String, _ query: String) throws -> [String] {
        let reply = instance.reply(
            to: NowHTTPRequest(
                method: "GET", path: "/api/now/table/\(table)",
                queryItems: [
                    URLQueryItem(name: "sysparm_query", value: query),
                    URLQueryItem(name: "sysparm_fields", value: "sys_id"),
                ],
                headers: ["Authorization": "Basic " + Data("admin:admin".utf8).base64EncodedString()]))
        guard case .respond(let response, _) = reply, case .array(let records) = try JSONValue(json: response.body)["result"]
        else {
            return []
        }
        return records.compactMap { $0["sys_id"]?.string }
    }
}
