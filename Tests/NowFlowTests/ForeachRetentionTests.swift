import Foundation
import LocalInstance
import NowData
import Testing

@testable import NowFlow

/// Issue 26: a `foreach` whose per-item results no expression uses keeps those of its first
/// ``ForeachStep/listedItems`` items and counts the rest (their steps and records written), so that a foreach over
/// a streamed query of millions of records holds as much as one over a thousand; a foreach whose results are used
/// keeps them all, and an item that fails is listed wherever it is.
@Suite struct ForeachRetentionTests {
    /// Whether each foreach of `text` keeps its results, by id (`-` for one without), bodies included.
    private func keeping(_ text: String) throws -> [String: Bool] {
        var found: [String: Bool] = [:]
        func walk(_ steps: [Step]) {
            for step in steps {
                if case .foreach(let foreach) = step.kind {
                    found[step.id ?? "-"] = foreach.keepsResults
                    walk(foreach.steps)
                }
            }
        }
        walk(try JobFile.parse(text, file: "job.yaml").steps)
        return found
    }

    @Test func whetherAForeachKeepsItsResultsIsChosenFromTheJobsUsesOfThem() throws {
        let found = try keeping(
            """
            name: Uses
            vars:
              pair: [1, 2]
            steps:
              - id: all
                query: { table: incident, fields: [sys_id] }
              - id: counted
                foreach: steps.all.records
                as: incident
                steps:
                  - update: { table: incident, sys_id: "${incident.sys_id}", fields: { urgency: 2 } }
              - id: read
                foreach: vars.pair
                as: n
                steps:
                  - id: inner
                    foreach: vars.pair
                    as: letter
                    steps:
                      - set: { last: "${letter}" }
              - id: whole
                foreach: vars.pair
                as: n
                steps:
                  - set: { n: "${n}" }
              - foreach: vars.pair
                as: n
                steps:
                  - set: { m: "${n}" }
              - assert: "steps.counted.count == steps.all.count && len(steps.read.results) == 2"
              - set: { everything: "${steps.whole}" }
            """)
        #expect(found == ["counted": false, "read": true, "inner": false, "whole": true, "-": false])
    }

    @Test func aStreamedForeachWhoseResultsNobodyUsesListsItsFirstItemsAndCountsTheRest() async throws {
        let harness = try Self.harness(locations: 2_000)
        let result = try await harness.run(
            """
            name: Retag
            steps:
              - id: all
                query: { table: cmn_location, query: "nameSTARTSWITHretain-", fields: [sys_id], page_size: 500 }
              - id: each
                foreach: steps.all.records
                as: location
                steps:
                  - id: write
                    update: { table: cmn_location, sys_id: "${location.sys_id}", fields: { city: Retagged } }
            outputs:
              done: steps.each.count
            """)
        #expect(result.status == .passed, "\(result.error ?? "")")
        #expect(try harness.count("cmn_location", "city=Retagged") == 2_000)
        // The query and the foreach, and the body's step of the first 1000 items.
        #expect(result.steps.count == 2 + 1_000)
        #expect(result.steps.last?.number == "2")
        #expect(result.steps[1 + 999].number == "2[999].1")
        #expect(result.records.count == 1_000)
        #expect(Set(result.records.map(\.sysID)).count == 1_000)
        #expect(result.recordNumbers.count == 1_000)
        #expect(result.unlisted.items == 1_000)
        #expect(result.unlisted.steps == [.passed: 1_000])
        #expect(result.unlisted.records == [.updated: 1_000])
        #expect(result.results["each"]?["results"]?.array?.count == 1_000)
        #expect(result.results["each"]?["count"] == 2_000)
        #expect(result.outputs["done"] == 2_000)
        #expect(
            harness.lines.last
                == "ok   step 2 'each' (foreach): 2000 items; 1000 items not listed (past the first 1000): steps 1000 passed; records 1000 updated (N ms)"
        )
        #expect(result.changedRecordCount == 2_000)
        #expect(
            result.jsonValue["unlisted"]
                == ["items": 1_000, "steps": ["passed": 1_000], "records": ["updated": 1_000]])
        #expect(
            result.summaryText().hasSuffix(
                "\nforeach: 1000 items not listed (past the first 1000): steps 1000 passed; records 1000 updated\noutputs:\n  done = 2000"
            ))
        // What the report says is what a merge reads back.
        let entry = ReportValue(json: result.jsonValue, file: "report.json", place: "jobs[0]")
        #expect(try RunResult(reportEntry: entry).unlisted == result.unlisted)
    }

    @Test func aForeachWhoseResultsAreUsedKeepsEveryItem() async throws {
        let harness = try Self.harness(locations: 2_000)
        let result = try await harness.run(
            """
            name: Retag
            steps:
              - id: all
                query: { table: cmn_location, query: "nameSTARTSWITHretain-", fields: [sys_id], page_size: 500 }
              - id: each
                foreach: steps.all.records
                as: location
                parallel: 4
                steps:
                  - id: write
                    update: { table: cmn_location, sys_id: "${location.sys_id}", fields: { city: Kept } }
            outputs:
              written: len(steps.each.results)
            """)
        #expect(result.status == .passed, "\(result.error ?? "")")
        #expect(result.steps.count == 2 + 2_000)
        #expect(result.records.count == 2_000)
        #expect(result.unlisted.isEmpty)
        #expect(result.jsonValue["unlisted"] == nil)
        #expect(result.outputs["written"] == 2_000)
        #expect(result.results["each"]?["count"] == 2_000)
    }

    @Test func anItemThatFailsPastTheListedOnesIsListedInFull() async throws {
        let harness = try Self.harness(locations: 1_200)
        let result = try await harness.run(
            """
            name: Retag
            steps:
              - id: all
                query: { table: cmn_location, query: "nameSTARTSWITHretain-", fields: [sys_id, name], order_by: name, page_size: 500 }
              - id: each
                foreach: steps.all.records
                as: location
                parallel: 4
                steps:
                  - update: { table: cmn_location, sys_id: "${location.sys_id}", fields: { city: Checked } }
                  - assert: "location.name != 'retain-1100'"
                    continue_on_error: true
            """)
        #expect(result.status == .passed, "\(result.error ?? "")")
        // Two steps for each of the first 1000 items and for the item that failed; the others are counted.
        #expect(result.steps.count == 2 + 2 * 1_001)
        let failed = result.steps.filter { $0.status == .assertionFailed }
        #expect(failed.map(\.number) == ["2[1100].2"])
        #expect(failed.first?.message == "assertion failed: location.name != 'retain-1100' ('retain-1100' != 'retain-1100' is false)")
        #expect(result.steps.filter { $0.number.hasPrefix("2[1100].") }.map(\.status) == [.passed, .assertionFailed])
        #expect(result.records.count == 1_001)
        #expect(result.unlisted.items == 199)
        #expect(result.unlisted.steps == [.passed: 398])
        #expect(result.unlisted.records == [.updated: 199])
        #expect(result.results["each"]?["results"]?.array?.count == 1_000)
        #expect(result.results["each"]?["count"] == 1_200)
    }

    /// A harness whose instance has `locations` locations named `retain-0000` on.
    private static func harness(locations: Int) throws -> RunHarness {
        let harness = try RunHarness()
        let authorization = "Basic " + Data("admin:admin".utf8).base64EncodedString()
        for index in 0..<locations {
            let name = "retain-" + String(repeating: "0", count: 4 - String(index).count) + String(index)
            let reply = harness.instance.reply(
                to: NowHTTPRequest(
                    method: "POST", path: "/api/now/table/cmn_location",
                    headers: ["Authorization": authorization, "Content-Type": "application/json"],
                    body: Data(#"{"name":"\#(name)"}"#.utf8)))
            guard case .respond(let response, _) = reply, response.statusCode == 201 else {
                Issue.record("location \(name) was not created: \(reply)")
                break
            }
        }
        return harness
    }
}
