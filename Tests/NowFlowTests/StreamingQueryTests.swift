import Foundation
import LocalInstance
import NowData
import Testing

@testable import NowFlow

/// Issue 26: a query over more than a page pages by key (`sys_id>last`, `ORDERBYsys_id`) and streams its records:
/// to the one foreach over them, page by page, or through to a file, keeping none unless the job uses them whole.
@Suite struct StreamingQueryTests {
    /// The delivery of each query step of `text`, by id (`-` for a step without one), foreach bodies included.
    private func deliveries(_ text: String) throws -> [String: QueryStep.Delivery] {
        var found: [String: QueryStep.Delivery] = [:]
        func walk(_ steps: [Step]) {
            for step in steps {
                switch step.kind {
                case .query(let query): found[step.id ?? "-"] = query.delivery
                case .foreach(let foreach): walk(foreach.steps)
                default: break
                }
            }
        }
        walk(try JobFile.parse(text, file: "job.yaml").steps)
        return found
    }

    @Test func eachQuerysDeliveryIsChosenFromTheJobsUsesOfItsRecords() throws {
        let found = try deliveries(
            """
            name: Uses
            steps:
              - id: looped
                query: { table: incident }
              - foreach: steps.looped.records
                steps: [{ assert: "item.number != ''" }]
              - id: counted
                query: { table: incident }
              - assert: "steps.counted.count >= 0"
              - id: indexed
                query: { table: incident }
              - assert: "steps.indexed.records.0.number != ''"
              - id: asked
                query: { table: incident, collect: true }
              - foreach: steps.asked.records
                steps: [{ assert: "true" }]
              - id: twice
                query: { table: incident }
              - foreach: steps.twice.records
                steps: [{ assert: "true" }]
              - foreach: steps.twice.records
                steps: [{ assert: "true" }]
              - id: inner
                query: { table: incident }
              - foreach: "${[1, 2]}"
                as: round
                steps:
                  - foreach: steps.inner.records
                    steps: [{ assert: "true" }]
              - id: whole
                query: { table: incident }
              - set: { all: "${steps.whole}" }
              - query: { table: incident }
            """)
        #expect(
            found == [
                "looped": .foreach, "counted": .stream, "indexed": .collect, "asked": .collect, "twice": .collect,
                "inner": .collect, "whole": .collect, "-": .stream,
            ])
    }

    @Test func aQueryStreamedToItsForeachPagesByKeyAndKeepsNoRecords() async throws {
        let harness = try RunHarness()
        let result = try await harness.run(
            """
            name: Stream
            steps:
              - id: all
                query: { table: incident, page_size: 25, fields: [number] }
              - id: each
                foreach: steps.all.records
                as: incident
                steps:
                  - update: { table: incident, sys_id: "${incident.sys_id}", fields: { description: "seen ${incident.number}" } }
              - assert: "steps.all.count == 60 && steps.each.count == 60"
            """)
        #expect(result.status == .passed, "\(harness.lines)")
        #expect(
            harness.lines.first
                == "ok   step 1 'all' (query): first 25 incident records, keyed by sys_id; the foreach over steps.all.records reads the rest (N ms)"
        )
        #expect(harness.lines.last { $0.contains("'each'") } == "ok   step 2 'each' (foreach): 60 items (N ms)")
        #expect(result.results["all"] == ["count": 60, "streamed": true])
        // A first page in the instance's order, which does not hold them all; then by key from the start; after
        // the short page, the next asked with the count, which shows no record after it.
        let reads = harness.requests.filter { $0.method == "GET" }
        let queries = reads.map { request in
            RunHarness.normalized(request.queryItems.first { $0.name == "sysparm_query" }?.value ?? "")
        }
        #expect(
            queries == [
                "", "ORDERBYsys_id", "sys_id><sys_id>^ORDERBYsys_id", "sys_id><sys_id>^ORDERBYsys_id",
                "sys_id><sys_id>^ORDERBYsys_id",
            ])
        #expect(
            reads.map { $0.queryItems.contains { $0.name == "sysparm_no_count" } } == [false, true, true, true, false])
        // Each incident once.
        #expect(try harness.count("incident", "descriptionSTARTSWITHseen INC") == 60)
        #expect(harness.pages == [25, 50, 60])
    }

    @Test func aQueryOfOnePageKeepsTheInstancesOrderInOneRequest() async throws {
        let harness = try RunHarness()
        let result = try await harness.run(
            """
            name: One page
            steps:
              - id: few
                query: { table: incident, where: { active: true }, fields: [number] }
              - assert: "steps.few.records.0.number == 'INC0010001'"
            """)
        #expect(result.status == .passed, "\(harness.lines)")
        #expect(harness.requests.filter { $0.method == "GET" }.count == 1)
        #expect(harness.lines.first?.hasPrefix("ok   step 1 'few' (query): \(try harness.count("incident", "active=true")) records from incident (") == true)
    }

    @Test func aForeachRunAgainAfterReadingTheStreamSaysHowToKeepTheRecords() async throws {
        let harness = try RunHarness()
        let result = try await harness.run(
            """
            name: Again
            steps:
              - id: all
                query: { table: incident, page_size: 25, fields: [number] }
              - foreach: steps.all.records
                retry: { attempts: 2, delay: 10ms }
                steps:
                  - assert: "item.number == 'none'"
            """)
        #expect(result.status == .failed)
        #expect(
            harness.lines.last
                == "FAIL step 2 (foreach): foreach: the records of steps.all were streamed to this foreach once and not kept; give the query collect: true to go over them again (N ms)"
        )
    }

    @Test func aParallelForeachReadsTheStreamToo() async throws {
        let harness = try RunHarness()
        let result = try await harness.run(
            """
            name: Stream
            steps:
              - id: all
                query: { table: incident, where: { active: true }, page_size: 7, fields: [number] }
              - id: each
                foreach: steps.all.records
                as: incident
                parallel: 4
                steps:
                  - update: { table: incident, sys_id: "${incident.sys_id}", fields: { description: "parallel" } }
            """)
        #expect(result.status == .passed, "\(harness.lines)")
        let active = try harness.count("incident", "active=true")
        #expect(try harness.count("incident", "description=parallel") == active)
        #expect(harness.lines.last { $0.contains("'each'") } == "ok   step 2 'each' (foreach): \(active) items, 4 at a time (N ms)")
        let queries = harness.requests.filter { $0.method == "GET" }.map { request in
            RunHarness.normalized(request.queryItems.first { $0.name == "sysparm_query" }?.value ?? "")
        }
        #expect(queries.prefix(2) == ["active=true", "active=true^ORDERBYsys_id"])
        // The first page as it is, each page by key, then the page after the last asked with the count (after a
        // full last page, an empty one first).
        #expect(queries.count == 1 + (active + 6) / 7 + (active % 7 == 0 ? 2 : 1))
        #expect(queries.dropFirst(2).allSatisfy { $0 == "active=true^sys_id><sys_id>^ORDERBYsys_id" })
    }

    @Test func aQueryWritesItsRecordsToAFileAsTheyArriveAndKeepsItsCount() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stream-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("incidents.jsonl").path
        let harness = try RunHarness()
        let job = """
            name: Export
            steps:
              - id: all
                query: { table: incident, page_size: 16, fields: [number], to: "\(path)" }
            outputs:
              exported: steps.all.count
            """
        let result = try await harness.run(job)
        #expect(result.status == .passed, "\(harness.lines)")
        #expect(
            harness.lines
                == ["ok   step 1 'all' (query): 60 records from incident, keyed by sys_id, streamed (not kept), written to \(path) (N ms)"])
        #expect(result.results["all"] == ["count": 60, "streamed": true, "to": .string(path)])
        #expect(result.outputs["exported"] == 60)
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 60)
        let records = try lines.map { try JSONValue(json: Data($0.utf8)) }
        #expect(Set(records.compactMap { $0["sys_id"]?.string }).count == 60)
        #expect(records.first?["number"]?.string?.hasPrefix("INC") == true)

        let again = try await harness.run(job)
        #expect(again.status == .failed)
        #expect(
            harness.lines.last
                == "FAIL step 1 'all' (query): to: '\(path)' exists (\(path)); give overwrite: true to replace it (N ms)")
    }
}
