import Foundation
import NowData
import Testing

@testable import NowFlow

/// `--shard K/N` in the runner (issue 26): the shard's text, the FNV-1a hash other tools can reproduce, a foreach
/// over records split between the shards (its body's foreach steps whole), and `once: true`.
@Suite struct ShardTests {
    @Test func aShardIsReadFromKOverN() throws {
        let shard = try Shard(parsing: "2/4")
        #expect((shard.index, shard.count, shard.description) == (2, 4, "2/4"))
        #expect(try Shard(parsing: "1/1").description == "1/1")
        let problems = ["0/4", "5/4", "1/0", "x", "2/", "/4", "2/4/8", "-1/4", "two/four", ""].map { text in
            do throws(Shard.Problem) {
                _ = try Shard(parsing: text)
                return "\(text): accepted"
            } catch {
                return error.message
            }
        }
        #expect(
            problems == [
                "0/4: the shard must be from 1 to 4, not 0",
                "5/4: the shard must be from 1 to 4, not 5",
                "1/0: the number of shards must be at least 1, not 0",
                "expects K/N, shard K of N (such as 2/4), got 'x'",
                "expects K/N, shard K of N (such as 2/4), got '2/'",
                "expects K/N, shard K of N (such as 2/4), got '/4'",
                "expects K/N, shard K of N (such as 2/4), got '2/4/8'",
                "-1/4: the shard must be from 1 to 4, not -1",
                "expects K/N, shard K of N (such as 2/4), got 'two/four'",
                "expects K/N, shard K of N (such as 2/4), got ''",
            ])
    }

    /// FNV-1a 64 of the sys_id's UTF-8, modulo N, plus 1: the published test vectors of FNV-1a 64 ("" gives
    /// cbf29ce484222325, "a" af63dc4c8601ec8c) and values any tool computes the same way.
    @Test func theShardOfASysIDIsFNV1aModuloN() {
        #expect(Shard.shard(ofSysID: "", count: 1_000_000_007) == Int(0xcbf2_9ce4_8422_2325 % UInt64(1_000_000_007)) + 1)
        #expect(Shard.shard(ofSysID: "a", count: 1_000_000_007) == Int(0xaf63_dc4c_8601_ec8c % UInt64(1_000_000_007)) + 1)
        // 0x756f7583ce804126 % 4 == 2: shard 3 of 4; % 2 == 0: shard 1 of 2.
        #expect(Shard.shard(ofSysID: "9d385017c611228701d22104cc95c371", count: 4) == 3)
        #expect(Shard.shard(ofSysID: "9d385017c611228701d22104cc95c371", count: 2) == 1)
        #expect(Shard.shard(ofSysID: "anything", count: 1) == 1)
        let shard = Shard(index: 3, count: 4)
        #expect(shard?.owns(sysID: "9d385017c611228701d22104cc95c371") == true)
        #expect(Shard(index: 5, count: 4) == nil)
        // An item that is not a record runs on every shard.
        #expect(Shard(index: 2, count: 4)?.owns(item: .json(.number(JSONNumber(7)))) == true)
        #expect(Shard(index: 2, count: 4)?.owns(item: .json(["number": "INC0010001"])) == true)
        // A sys_id with its display value (display_value: all) is the record's too.
        let record: JSONValue = ["sys_id": ["value": "9d385017c611228701d22104cc95c371", "display_value": "x"]]
        #expect(Shard(index: 3, count: 4)?.owns(item: .json(record)) == true)
        #expect(Shard(index: 2, count: 4)?.owns(item: .json(record)) == false)
        // Read as a record's field is: a sys_id field object without a value has it in its link.
        let link = "https://example.service-now.com/api/now/table/incident/9d385017c611228701d22104cc95c371"
        let linked: JSONValue = ["sys_id": ["link": .string(link)]]
        #expect(Shard(index: 3, count: 4)?.owns(item: .json(linked)) == true)
        #expect(Shard(index: 2, count: 4)?.owns(item: .json(linked)) == false)
        // A query's record, typed.
        let typed = ExpressionValue.record(NowRecord(fields: ["sys_id": .init(value: "9d385017c611228701d22104cc95c371")]))
        #expect(Shard(index: 3, count: 4)?.owns(item: typed) == true)
        #expect(Shard(index: 2, count: 4)?.owns(item: typed) == false)
    }

    /// Four shards of the same job: each runs the records whose sys_id hashes to it, together every record once;
    /// a foreach in the body runs all its items for each of the shard's records.
    @Test func theShardsOfAForeachOverRecordsRunEachRecordOnce() async throws {
        let harness = try RunHarness()
        let job = """
            name: Split
            steps:
              - id: all
                query: { table: incident, fields: [sys_id, number], order_by: number }
              - id: few
                query: { table: sys_user, fields: [sys_id], limit: 3 }
              - id: each
                foreach: steps.all.records
                as: incident
                steps:
                  - id: seen
                    set: { sys_id: "${incident.sys_id}" }
                  - id: inner
                    foreach: steps.few.records
                    as: user
                    steps:
                      - set: { user: "${user.sys_id}" }
            """
        let all = try harness.sysIDs("incident", "")
        #expect(all.count > 20)
        var union: [String] = []
        for index in 1...4 {
            let shard = try #require(Shard(index: index, count: 4))
            let result = try await harness.run(job, shard: shard)
            #expect(result.status == .passed, "\(result.error ?? "")")
            #expect(result.shard == shard)
            let items = result.results["each"]?["results"]?.array ?? []
            let seen = items.compactMap { $0["seen"]?["sys_id"]?.string }
            #expect(seen.allSatisfy { Shard.shard(ofSysID: $0, count: 4) == index })
            union += seen
            let each = try #require(result.steps.first { $0.number == "3" })
            #expect(each.message == "\(seen.count) of \(all.count) items (shard \(index)/4)")
            // The body's foreach is not split again: 3 users for each of the shard's incidents.
            let inner = result.steps.filter { $0.id == "inner" }
            #expect(inner.count == seen.count)
            #expect(inner.allSatisfy { $0.message == "3 items" })
        }
        #expect(union.count == all.count)
        #expect(Set(union) == Set(all))
    }

    @Test func aParallelForeachIsSplitTheSameWay() async throws {
        let harness = try RunHarness()
        let job = """
            name: Parallel
            steps:
              - id: all
                query: { table: incident, fields: [sys_id] }
              - id: each
                foreach: steps.all.records
                as: incident
                parallel: 4
                steps:
                  - id: seen
                    set: { sys_id: "${incident.sys_id}" }
            """
        var union: [String] = []
        for index in 1...3 {
            let result = try await harness.run(job, shard: Shard(index: index, count: 3))
            let seen = (result.results["each"]?["results"]?.array ?? []).compactMap { $0["seen"]?["sys_id"]?.string }
            #expect(seen.allSatisfy { Shard.shard(ofSysID: $0, count: 3) == index })
            union += seen
        }
        #expect(union.sorted() == (try harness.sysIDs("incident", "")).sorted())
    }

    /// `once: true` runs on shard 1 only; the other shards report it skipped; without --shard it runs.
    @Test func aStepThatRunsOnceRunsOnShardOne() async throws {
        let harness = try RunHarness()
        let job = """
            name: Once
            steps:
              - id: summary
                once: true
                set: { ran: true }
              - set: { after: true }
            """
        let first = try await harness.run(job, shard: Shard(index: 1, count: 3))
        #expect(first.steps.map(\.status) == [.passed, .passed])
        #expect(first.vars["ran"] == true)
        let second = try await harness.run(job, shard: Shard(index: 2, count: 3))
        #expect(second.steps.map(\.status) == [.skipped, .passed])
        #expect(second.steps[0].message == "once: runs on shard 1/3, not 2/3")
        #expect(second.vars["ran"] == nil)
        let whole = try await harness.run(job)
        #expect(whole.steps.map(\.status) == [.passed, .passed])
    }

    @Test func onceInAForeachsStepsIsRefused() throws {
        let text = """
            name: Once
            steps:
              - foreach: "[1, 2]"
                steps:
                  - once: true
                    set: { x: 1 }
            """
        do {
            _ = try JobFile.parse(text, file: "job.yaml")
            Issue.record("once: in a foreach's steps was accepted")
        } catch {
            #expect(
                error.description
                    == "job.yaml:5:15: error: once: a step of a foreach's steps runs for the items of each shard; put the step outside the foreach"
            )
        }
    }
}
