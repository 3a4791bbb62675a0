import Foundation
import Synchronization
import Testing
import TestSupport

@preconcurrency import Glibc

/// `nowflow run` of a parallel `foreach`: SIGINT mid-way, a storm of 429s from `nowflow serve`, and the plain
/// progress lines of a long foreach.
///
/// Serialized: the progress test counts lines due every 3 s of the tool's own clock, and the others run parallel
/// foreaches of up to 32 requests; one such tool at a time keeps their timing the tool's, not the suite's.
@Suite(.serialized) struct ParallelCommandTests {
    private func normalized(_ text: String) -> String {
        text.replacingOccurrences(of: #"\d+ ms"#, with: "N ms", options: .regularExpression)
            .replacingOccurrences(of: #"[0-9a-f]{32}"#, with: "<sys_id>", options: .regularExpression)
    }

    private func directory(with job: String) throws -> URL {
        let directory = try ToolInvocation.temporaryDirectory()
        try job.write(to: directory.appendingPathComponent("job.yaml"), atomically: true, encoding: .utf8)
        return directory
    }

    /// The answer to a request whose path starts with `prefix` waits `delay` when it is the `nth` of them (from 1)
    /// in `positions`; any other is answered at once.
    private func holding(_ prefix: String, at positions: Set<Int>, for delay: Duration) throws -> HeldInstance {
        let seen = Mutex(0)
        return try HeldInstance { _, request in
            guard "\(request.method) \(request.path)".hasPrefix(prefix) else { return .zero }
            let nth = seen.withLock { seen in
                seen += 1
                return seen
            }
            return positions.contains(nth) ? delay : .zero
        }
    }

    @Test func sigintMidWayCancelsTheRunningItemsStartsNoOtherAndRunsFinally() async throws {
        // Items 0 and 1 are answered at once; items 2 and 3 (their queries name them) are held for a minute, the
        // finally's query is not. Held by item, not by arrival: under load item 2 may start before item 1's request
        // arrives.
        let server = try HeldInstance { _, request in
            let query = request.queryItems.first { $0.name == "sysparm_query" }?.value ?? ""
            return query.hasSuffix("!=item 2") || query.hasSuffix("!=item 3") ? .seconds(60) : .zero
        }
        let directory = try directory(
            with: """
                name: Parallel reads
                auth:
                  basic: { user: admin, password: pw }
                vars:
                  items: [0, 1, 2, 3, 4, 5]
                steps:
                  - id: each
                    foreach: vars.items
                    parallel: 2
                    steps:
                      - id: read
                        query: { table: incident, limit: 1, fields: [number], query: "number!=item ${item}" }
                  - assert: "steps.each.count == 6"
                finally:
                  - query: { table: incident, limit: 1, fields: [number] }
                """)
        defer { try? FileManager.default.removeItem(at: directory) }
        let running = try RunningTool(
            ["run", "job.yaml", "--instance", "http://127.0.0.1:\(server.port)", "--offline"], in: directory)
        // Items 0 and 1 are done, 2 and 3 are held at the instance.
        #expect(running.waitForError(containing: "ok   step 1[1].1 'read'"))
        #expect(server.waitForHeld(2), "requests: \(server.requests)")
        running.send(SIGINT)
        let result = running.finish()
        #expect(result.status == 130)
        #expect(
            normalized(result.stderr) == """
                ok   step 1[0].1 'read' (query): 1 record from incident (N ms)
                ok   step 1[1].1 'read' (query): 1 record from incident (N ms)
                nowflow run: SIGINT: cancelling the request in flight and skipping the remaining steps; finally runs (a second signal stops it)
                FAIL step 1[2].1 'read' (query): interrupted by SIGINT: network error: the operation was cancelled (N ms)
                FAIL step 1[3].1 'read' (query): interrupted by SIGINT: network error: the operation was cancelled (N ms)
                FAIL step 1 'each' (foreach): interrupted by SIGINT: item 2 failed: step 1[2].1 'read' (query): interrupted by SIGINT: network error: the operation was cancelled (N ms)
                skip step 2 (assert): not run: interrupted by SIGINT (N ms)
                ok   finally 1 (query): 1 record from incident (N ms)

                """)
        #expect(
            normalized(result.stdout) == """
                     number
                     ----------
                     INC0010001
                     number
                     ----------
                     INC0010001
                     number
                     ----------
                     INC0010001
                Parallel reads: interrupted by SIGINT (6 steps run, N ms)
                  job.yaml:7:5: step 1 'each' (foreach): interrupted by SIGINT: item 2 failed: step 1[2].1 'read' (query): interrupted by SIGINT: network error: the operation was cancelled
                  not run: step 2 (assert)

                """)
    }

    @Test func aStormOf429IsWaitedOutWithoutFailingTheRun() async throws {
        let server = try await ServeProcess([
            "--db", ":memory:", "--password", "pw", "--fail-status", "429", "--fail-first", "8", "--retry-after", "1",
        ])
        let directory = try directory(
            with: """
                name: Storm
                auth:
                  basic: { user: admin, password: pw }
                vars:
                  items: [1, 2, 3, 4, 5, 6, 7, 8]
                steps:
                  - id: each
                    foreach: vars.items
                    parallel: 4
                    steps:
                      - id: note
                        create: { table: incident, fields: { short_description: "storm ${item}" } }
                finally:
                  - delete: { table: incident, query: "short_descriptionSTARTSWITHstorm ", max: 8 }
                """)
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try ToolInvocation.run(
            ["run", "job.yaml", "--instance", "http://127.0.0.1:\(server.port)", "--offline"], in: directory)
        #expect(result.status == 0)
        #expect(
            normalized(result.stderr) == (1...8).map {
                "ok   step 1[\($0 - 1)].1 'note' (create): created incident <sys_id> (N ms)\n"
            }.joined() + """
                ok   step 1 'each' (foreach): 8 items, 4 at a time, retried 8x after 429 (N ms)
                ok   finally 1 (delete): deleted 8 incident records (N ms)

                """)
        // The items' results in input order (their numbers in the order the instance gave them).
        let numbered = normalized(result.stdout).replacingOccurrences(
            of: #"INC\d{7}"#, with: "INC<n>", options: .regularExpression)
        #expect(
            numbered
                == (1...8).map { "     number             INC<n>\n     short_description  storm \($0)\n" }.joined()
                + "     sys_id\n     --------------------------------\n"
                + String(repeating: "     <sys_id>\n", count: 8)
                + "Storm: passed (10 steps run, N ms)\nrecords touched:\n"
                + (0..<8).map {
                    "  incident INC<n> (<sys_id>): created by step 1[\($0)].1 'note' (create), deleted by finally 1 (delete)\n"
                }.joined())
    }

    /// Without a terminal (or with NO_COLOR), a long foreach prints a plain progress line every few seconds (3 s
    /// after the first item, then 3 s after the last line): done of total, rate, time left. Item 8's answer waits
    /// 3.5 s and the others come at once, so that one line is due, at item 8, however slow the machine (short of
    /// three seconds lost between two quick items).
    @Test func aLongForeachPrintsPlainProgressLines() async throws {
        let server = try holding("GET /api/now/table/incident", at: [8], for: .milliseconds(3500))
        let directory = try directory(
            with: """
                name: Slow reads
                auth:
                  basic: { user: admin, password: pw }
                vars:
                  items: [1, 2, 3, 4, 5, 6, 7, 8, 9]
                steps:
                  - id: each
                    foreach: vars.items
                    steps:
                      - query: { table: incident, limit: 1, fields: [number] }
                """)
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try ToolInvocation.run(
            ["run", "job.yaml", "--instance", "http://127.0.0.1:\(server.port)", "--offline"], in: directory)
        #expect(result.status == 0)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        let progress = lines.filter { !$0.hasPrefix("ok ") }
        #expect(progress.count == 1, "\(result.stderr)")
        #expect(
            progress.first?.replacingOccurrences(of: #"[0-9.]+"#, with: "N", options: .regularExpression)
                == "step N 'each' (foreach): N of N items, N/s, N s left")
        #expect(lines.count == 11)
    }
}
