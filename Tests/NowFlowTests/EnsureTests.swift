import Foundation
import LocalInstance
import NowData
import Testing

@testable import NowFlow

/// `ensure`: created, then unchanged; only the fields that differ are sent; labels, display values and dates
/// compare as the instance stores them; absent; more than one match; the dry run's decision and diff.
@Suite struct EnsureTests {
    static let team = """
        name: Team
        vars:
          description: Runs the platform
        steps:
          - id: group
            ensure:
              table: sys_user_group
              match: { name: Platform Ops }
              fields: { description: "${vars.description}", email: platform@example.com, active: true }
        """

    /// The summary with times and sys_ids replaced.
    private func summary(_ result: RunResult) -> String {
        RunHarness.normalized(result.summaryText()).replacingOccurrences(
            of: #"\d+ ms"#, with: "N ms", options: .regularExpression)
    }

    @Test func aSecondRunChangesNothing() async throws {
        let harness = try RunHarness()
        let first = try await harness.run(Self.team)
        #expect(first.status == .passed)
        #expect(first.exitCode(detailed: false) == 0)
        #expect(first.exitCode(detailed: true) == 5)
        #expect(first.results["group"]?["result"] == "created")
        #expect(first.results["group"]?["changed"] == true)
        #expect(first.results["group"]?["fields"] == ["name", "description", "email", "active"])
        #expect(
            summary(first) == """
                Team: passed (1 step run, N ms)
                1 record changed
                records touched:
                  sys_user_group Platform Ops (<sys_id>): created by step 1 'group' (ensure)
                """)
        let second = try await harness.run(Self.team)
        #expect(second.status == .passed)
        #expect(second.exitCode(detailed: false) == 0)
        #expect(second.exitCode(detailed: true) == 0)
        #expect(second.results["group"]?["result"] == "unchanged")
        #expect(second.results["group"]?["changed"] == false)
        #expect(second.results["group"]?["fields"] == [])
        #expect(second.results["group"]?["sys_id"] == first.results["group"]?["sys_id"])
        #expect(second.results["group"]?["record"]?["description"] == "Runs the platform")
        #expect(
            summary(second) == """
                Team: passed (1 step run, N ms)
                1 record unchanged
                """)
        #expect(
            harness.lines == [
                "ok   step 1 'group' (ensure): created sys_user_group Platform Ops (<sys_id>) (N ms)",
                "ok   step 1 'group' (ensure): unchanged sys_user_group Platform Ops (<sys_id>) (N ms)",
            ])
        // The second run only read.
        #expect(harness.requests.filter { $0.method != "GET" }.map(\.method) == ["POST"])
        #expect(try harness.count("sys_user_group", "name=Platform Ops") == 1)
    }

    @Test func onlyTheFieldsThatDifferAreSent() async throws {
        let harness = try RunHarness()
        _ = try await harness.run(Self.team)
        let result = try await harness.run(Self.team, variables: ["description": "Runs the platform and the CI"])
        #expect(result.status == .passed)
        #expect(result.results["group"]?["result"] == "updated")
        #expect(result.results["group"]?["fields"] == ["description"])
        #expect(
            result.results["group"]?["changes"]
                == ["description": ["from": "Runs the platform", "to": "Runs the platform and the CI"]])
        #expect(
            harness.lines.last
                == "ok   step 1 'group' (ensure): updated sys_user_group Platform Ops (<sys_id>): description 'Runs the platform' → 'Runs the platform and the CI' (N ms)"
        )
        let patch = try #require(harness.requests.last { $0.method == "PATCH" })
        #expect(patch.body.flatMap { try? JSONValue(json: $0) } == ["description": "Runs the platform and the CI"])
        #expect(
            summary(result) == """
                Team: passed (1 step run, N ms)
                1 record changed
                records touched:
                  sys_user_group Platform Ops (<sys_id>): updated by step 1 'group' (ensure)
                """)
    }

    @Test func labelsDisplayValuesAndDatesCompareAsStored() async throws {
        let harness = try RunHarness()
        let incident = try #require(try harness.sysIDs("incident", "number=INC0010001").first)
        let setUp = try await harness.run(
            """
            name: Set up
            steps:
              - update:
                  table: incident
                  sys_id: \(incident)
                  fields: { urgency: 1, due_date: "2026-01-05 08:00:00", assignment_group: "\(try #require(try harness.sysIDs("sys_user_group", "name=Database").first))" }
            """)
        #expect(setUp.status == .passed)
        let result = try await harness.run(
            """
            name: Same
            coder: { dates: "dd/MM/yyyy HH:mm" }
            steps:
              - id: choice
                ensure: { table: incident, match: { number: INC0010001 }, fields: { urgency: 1 - High } }
              - id: value
                ensure: { table: incident, match: { number: INC0010001 }, fields: { urgency: 1 } }
              - id: reference
                ensure: { table: incident, match: { number: INC0010001 }, fields: { assignment_group: Database } }
              - id: date
                ensure: { table: incident, match: { number: INC0010001 }, fields: { due_date: "05/01/2026 08:00" } }
              - id: later
                ensure: { table: incident, match: { number: INC0010001 }, fields: { due_date: "05/01/2026 09:30" } }
            """)
        #expect(result.status == .passed, "\(result.error ?? "")")
        #expect(
            harness.lines.suffix(5) == [
                "ok   step 1 'choice' (ensure): unchanged incident INC0010001 (<sys_id>) (N ms)",
                "ok   step 2 'value' (ensure): unchanged incident INC0010001 (<sys_id>) (N ms)",
                "ok   step 3 'reference' (ensure): unchanged incident INC0010001 (<sys_id>) (N ms)",
                "ok   step 4 'date' (ensure): unchanged incident INC0010001 (<sys_id>) (N ms)",
                "ok   step 5 'later' (ensure): updated incident INC0010001 (<sys_id>): due_date '2026-01-05 08:00:00' → '2026-01-05 09:30:00' (N ms)",
            ])
        #expect(result.ensured == ["unchanged": 4, "updated": 1])
        #expect(try harness.count("incident", "number=INC0010001^due_date=2026-01-05 09:30:00") == 1)
    }

    @Test func absentDeletesTheMatchThenFindsNothing() async throws {
        let harness = try RunHarness()
        _ = try await harness.run(Self.team)
        let job = """
            name: Gone
            steps:
              - id: group
                ensure: { table: sys_user_group, match: { name: Platform Ops }, state: absent }
            """
        let first = try await harness.run(job)
        #expect(first.results["group"]?["result"] == "deleted")
        #expect(first.exitCode(detailed: true) == 5)
        let second = try await harness.run(job)
        #expect(second.results["group"]?["result"] == "absent")
        #expect(second.results["group"]?["sys_id"] == .null)
        #expect(second.exitCode(detailed: true) == 0)
        #expect(
            harness.lines.suffix(2) == [
                "ok   step 1 'group' (ensure): deleted sys_user_group Platform Ops (<sys_id>) (N ms)",
                "ok   step 1 'group' (ensure): absent: no sys_user_group record matches 'name=Platform Ops' (N ms)",
            ])
        #expect(
            summary(second) == """
                Gone: passed (1 step run, N ms)
                1 record unchanged
                """)
        #expect(try harness.count("sys_user_group", "name=Platform Ops") == 0)
    }

    @Test func moreThanOneMatchIsRefusedBeforeAnyWrite() async throws {
        let harness = try RunHarness()
        let result = try await harness.run(
            """
            name: Ambiguous
            steps:
              - ensure: { table: incident, query: "active=true", fields: { urgency: 1 } }
            """)
        #expect(result.status == .failed)
        #expect(harness.requests.allSatisfy { $0.method == "GET" })
        let open = try harness.count("incident", "active=true")
        #expect(
            result.error
                == "step 1 (ensure): \(open) incident records match 'active=true': ensure changes one record; give a match: (or query:) that finds one"
        )
    }

    @Test func aDryRunShowsTheSameDecisionAndDiff() async throws {
        let harness = try RunHarness()
        _ = try await harness.run(Self.team)
        let result = try await harness.run(
            Self.team, dryRun: true, variables: ["description": "Runs everything"])
        #expect(result.status == .passed)
        #expect(result.exitCode(detailed: true) == 5)
        #expect(
            harness.lines.last
                == "ok   step 1 'group' (ensure): would update sys_user_group Platform Ops (<sys_id>): description 'Runs the platform' → 'Runs everything' (dry run) (N ms)"
        )
        #expect(
            summary(result) == """
                Team: dry run passed (1 step run, N ms, dry run)
                1 record would change
                writes not sent (dry run):
                  PATCH /api/now/table/sys_user_group/<sys_id> {"description":"Runs everything"}
                    Platform Ops: description Runs the platform → Runs everything
                """)
        #expect(try harness.count("sys_user_group", "description=Runs the platform") == 1)
        let unchanged = try await harness.run(Self.team, dryRun: true)
        #expect(unchanged.plannedWrites.isEmpty)
        #expect(unchanged.exitCode(detailed: true) == 0)
        let created = try await harness.run(
            Self.team.replacingOccurrences(of: "Platform Ops", with: "Data Ops"), dryRun: true)
        #expect(created.exitCode(detailed: true) == 5)
        #expect(
            harness.lines.last
                == "ok   step 1 'group' (ensure): would create sys_user_group Data Ops (dry-run-1) (dry run) (N ms)")
        #expect(try harness.count("sys_user_group", "name=Data Ops") == 0)
    }

    @Test func badEnsureStepsAreDiagnosed() throws {
        let text = """
            name: Bad
            steps:
              - ensure: { table: sys_user_group, fields: { name: x } }
              - ensure: { table: sys_user_group, match: { name: x }, query: "name=x", fields: { name: x } }
              - ensure: { table: sys_user_group, match: { name: x }, state: gone }
              - ensure: { table: sys_user_group, match: { name: x }, state: absent, fields: { name: x } }
              - ensure: { table: sys_user_group, match: {} }
              - ensure: { table: sys_user_group, match: { name: x }, fileds: { name: x } }
            """
        do {
            _ = try JobFile.parse(text, file: "job.yaml")
            Issue.record("the job was valid")
        } catch {
            #expect(
                error.description == """
                    job.yaml:3:13: error: ensure needs match: (field: value pairs that find the record) or query:
                    job.yaml:4:65: error: ensure takes match: or query:, not both
                    job.yaml:5:65: error: ensure.state must be present or absent, not 'gone'
                    job.yaml:6:81: error: ensure with state: absent deletes the record it matches; it takes no fields:
                    job.yaml:7:45: error: ensure's match: needs at least one field: value pair
                    job.yaml:8:58: error: unknown key 'fileds' in ensure; did you mean 'fields'?
                    """)
        }
    }

    /// validate knows the shapes of the ensure and http results: `changed` is a boolean, `status` a number.
    @Test func validateKnowsTheResultTypes() {
        let text = """
            name: Types
            steps:
              - id: group
                ensure: { table: sys_user_group, match: { name: x } }
              - id: stats
                http: { path: /api/now/stats/incident }
              - assert: "steps.group.changed && steps.stats.status"
              - assert: "len(steps.group.fields) >= 0 && steps.group.result == 'created'"
            """
        do {
            _ = try JobFile.parse(text, file: "job.yaml")
            Issue.record("the job was valid")
        } catch {
            #expect(error.description == "job.yaml:7:37: error: '&&' needs true or false, not a number")
        }
    }
}
