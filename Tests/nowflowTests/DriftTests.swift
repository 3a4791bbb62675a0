import Foundation
import Synchronization
import Testing
import TestSupport

/// Issue 26: a job updates 2,000 records through four shards of `nowflow run` (`--shard 1/4` to `4/4`, at once)
/// against `nowflow serve` while another client inserts and deletes records in the same range. Paged by key, every
/// record that existed throughout is updated exactly once and none twice; paged by offset (the control), the same
/// job skips or repeats records, which shows the instance reproduces the drift the keyed paging avoids.
@Suite(.serialized) struct DriftTests {
    /// The runners that process the range together: each a `nowflow run` of the same job with its own extra
    /// arguments, run at once: one per shard.
    static let runners: [[String]] = (1...4).map { ["--shard", "\($0)/4"] }

    /// What the drift harness saw: each record's sys_mod_count at the end (a record updated once has 1), and what
    /// the other client did meanwhile.
    struct Outcome {
        /// The sys_ids of the records that existed from before the runs to after them.
        var throughout: Set<String>
        /// How many times each record of the range left at the end was updated.
        var updates: [String: Int]
        var inserted: Int
        var deleted: Int
        var runs: [ToolInvocation]
        /// Each runner's JSON report.
        var reports: [String]
        /// How many of the seeded records the other client deleted.
        var deletedOriginals: Int

        /// The records that existed throughout and were not updated exactly once.
        var drifted: [String: Int] {
            var drifted: [String: Int] = [:]
            for sysID in throughout where updates[sysID] != 1 { drifted[sysID] = updates[sysID] ?? 0 }
            return drifted
        }
    }

    @Test func keyedPagingProcessesEveryRecordThatExistedThroughoutExactlyOnce() async throws {
        let outcome = try await drift(records: 2_000, paging: "keyed")
        try expectExactlyOnce(outcome)
    }

    /// The same with the job's own sort, newest first: `sys_created_on` (whose values the seeded records share by
    /// the hundred, so that the tie-breaker, `sys_id`, does most of the work) then `sys_id`, while the other
    /// client's inserts land before the page being read.
    @Test func keyedPagingOnTheJobsOwnSortProcessesEveryRecordThatExistedThroughoutExactlyOnce() async throws {
        let outcome = try await drift(records: 2_000, paging: "keyed", sort: "order_by_desc: sys_created_on, ")
        try expectExactlyOnce(outcome)
        for run in outcome.runs {
            #expect(run.stderr.contains("keyed by sys_created_on descending and sys_id;"), "\(run.stderr)")
        }
    }

    /// Every record that existed throughout updated once, none twice, and each runner's report holds the streamed
    /// query's count, not its records.
    private func expectExactlyOnce(_ outcome: Outcome) throws {
        for run in outcome.runs { #expect(run.status == 0, "\(run.stderr)") }
        #expect(outcome.deleted >= 20 && outcome.inserted >= 20, "the other client did too little to show anything")
        #expect(outcome.drifted.isEmpty, "\(outcome.drifted.count) records drifted")
        // No record, inserted meanwhile or not, was processed twice.
        #expect(outcome.updates.values.allSatisfy { $0 <= 1 })
        #expect(outcome.throughout.count == 2_000 - outcome.deletedOriginals)
        // The streamed query's report has its count, not its records.
        for report in outcome.reports {
            ReportCheck.expectValid(report)
            let parsed = try #require(try JSONSerialization.jsonObject(with: Data(report.utf8)) as? [String: Any])
            let job = try #require((parsed["jobs"] as? [[String: Any]])?.first)
            let result = try #require((job["results"] as? [String: Any])?["range"] as? [String: Any])
            #expect(result.keys.sorted() == ["count", "streamed"])
            #expect((result["count"] as? Int ?? 0) >= outcome.throughout.count)
        }
    }

    @Test func offsetPagingOfTheSameJobDrifts() async throws {
        let outcome = try await drift(records: 2_000, paging: "offset")
        for run in outcome.runs { #expect(run.status == 0, "\(run.stderr)") }
        #expect(outcome.deleted >= 20 && outcome.inserted >= 20, "the other client did too little to show anything")
        #expect(!outcome.drifted.isEmpty, "offset paging did not drift: the control shows nothing")
    }

    /// Seeds `records` locations named `drift-N` on a served instance, runs ``runners`` over them with `paging`
    /// (and `sort`, the query's sort keys followed by a comma and a space)
    /// while another client inserts `drift-new-N` locations and deletes some of them and some of the seeded ones,
    /// and reads each record's update count back.
    private func drift(records: Int, paging: String, sort: String = "") async throws -> Outcome {
        let server = try await ServeProcess(["--db", ":memory:", "--password", "pw"])
        let client = Client(port: server.port)
        var originals: [String] = []
        for index in 0..<records {
            originals.append(try client.create("drift-\(index)"))
        }
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try """
        name: Drift
        auth:
          basic: { user: admin, password: pw }
        steps:
          - id: range
            query: { table: cmn_location, query: "nameSTARTSWITHdrift-", \(sort)fields: [sys_id], page_size: 100, paging: \(paging) }
          - foreach: steps.range.records
            as: location
            steps:
              - update: { table: cmn_location, sys_id: "${location.sys_id}", fields: { street: "updated" } }
                continue_on_error: true
        """.write(to: directory.appendingPathComponent("job.yaml"), atomically: true, encoding: .utf8)

        // The other client: while the runs go on, inserts a record, deletes one it inserted before, and every
        // other round one of the seeded records (those are then not records that existed throughout).
        let running = Atomic(true)
        let mutations = Mutex((inserted: 0, deleted: 0, originals: Set<String>()))
        let doomed = originals.shuffled().prefix(records / 10)
        let mutator = Thread {
            var own: [String] = []
            var round = 0
            var victims = doomed.makeIterator()
            while running.load(ordering: .relaxed) {
                round += 1
                if let sysID = try? client.create("drift-new-\(round)") {
                    own.append(sysID)
                    mutations.withLock { $0.inserted += 1 }
                }
                if own.count > 3, (try? client.delete(own.removeFirst())) == true {
                    mutations.withLock { $0.deleted += 1 }
                }
                if round % 2 == 0, let victim = victims.next(), (try? client.delete(victim)) == true {
                    mutations.withLock {
                        $0.deleted += 1
                        $0.originals.insert(victim)
                    }
                }
                usleep(5_000)
            }
        }
        mutator.start()
        let instance = "http://127.0.0.1:\(server.port)"
        let runs = try await withThrowingTaskGroup(of: (Int, ToolInvocation).self) { group in
            for (index, extra) in Self.runners.enumerated() {
                group.addTask {
                    let run = try await Self.onItsOwnThread {
                        try ToolInvocation.run(
                            ["run", "job.yaml", "--instance", instance, "--offline", "--report", "json:report-\(index).json"]
                                + extra, in: directory)
                    }
                    return (index, run)
                }
            }
            return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }.sorted { $0.key < $1.key }.map(\.value)
        }
        running.store(false, ordering: .relaxed)
        while !mutator.isFinished { usleep(10_000) }

        let done = mutations.withLock { $0 }
        return Outcome(
            throughout: Set(originals).subtracting(done.originals), updates: try client.updateCounts(),
            inserted: done.inserted, deleted: done.deleted, runs: runs,
            reports: try Self.runners.indices.map { index in
                try String(contentsOf: directory.appendingPathComponent("report-\(index).json"), encoding: .utf8)
            }, deletedOriginals: done.originals.count)
    }

    /// `body` on a thread of its own, so that a blocking wait holds none of Swift concurrency's threads.
    private static func onItsOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try body() }) }.start()
        }
    }

    /// The other client's requests, over plain sockets.
    private struct Client: Sendable {
        let port: UInt16
        let authorization = "Basic " + Data("admin:pw".utf8).base64EncodedString()

        struct Refused: Error, CustomStringConvertible {
            let description: String
        }

        /// Creates a location named `name`; gives its sys_id.
        func create(_ name: String) throws -> String {
            let body = #"{"name":"\#(name)"}"#
            let reply = try RawHTTPClient.exchange(
                Array(
                    ("POST /api/now/table/cmn_location?sysparm_fields=sys_id HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                        + "Authorization: \(authorization)\r\nContent-Type: application/json\r\n"
                        + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body).utf8),
                port: port)
            guard reply.status == 201,
                let sysID = try JSONSerialization.jsonObject(with: Data(reply.body.utf8)) as? [String: [String: String]],
                let value = sysID["result"]?["sys_id"]
            else { throw Refused(description: "create \(name): \(reply.status) \(reply.body)") }
            return value
        }

        /// Deletes the location `sysID`; whether it was there.
        func delete(_ sysID: String) throws -> Bool {
            let reply = try RawHTTPClient.send(
                "DELETE", "/api/now/table/cmn_location/\(sysID)", headers: ["Authorization": authorization], port: port)
            return reply.status == 204
        }

        /// The sys_mod_count of every location of the range.
        func updateCounts() throws -> [String: Int] {
            let reply = try RawHTTPClient.send(
                "GET",
                "/api/now/table/cmn_location?sysparm_query=nameSTARTSWITHdrift-&sysparm_fields=sys_id,sys_mod_count&sysparm_limit=1000000",
                headers: ["Authorization": authorization], port: port)
            guard reply.status == 200,
                let answer = try JSONSerialization.jsonObject(with: Data(reply.body.utf8)) as? [String: [[String: String]]],
                let rows = answer["result"]
            else { throw Refused(description: "read: \(reply.status)") }
            var counts: [String: Int] = [:]
            for row in rows {
                if let sysID = row["sys_id"] { counts[sysID] = Int(row["sys_mod_count"] ?? "") ?? 0 }
            }
            return counts
        }
    }
}
