import Foundation
import NowData
import Testing

@testable import NowFlow

/// `where:` operators, `or:` alternatives and empty lists, run against the embedded local instance.
@Suite struct WhereConditionTests {
    /// A condition over an empty list selects no record: a write by query writes nothing, a query returns nothing,
    /// and both say why, without sending a query the instance would read as no condition.
    @Test func anEmptyListMatchesNothing() async throws {
        let harness = try RunHarness()
        let before = try harness.count("sys_user_grmember", "")
        #expect(before > 0)
        let result = try await harness.run(
            """
            name: Stale memberships
            vars: { stale_ids: [] }
            steps:
              - id: gone
                delete: { table: sys_user_grmember, where: { sys_id: "${vars.stale_ids}" }, max: 50 }
              - id: found
                query: { table: sys_user_grmember, where: { sys_id: { in: "${vars.stale_ids}" } } }
              - assert: "steps.gone.count == 0 && steps.found.count == 0"
            """)
        #expect(result.status == .passed, "\(result.error ?? "")")
        #expect(try harness.count("sys_user_grmember", "") == before)
        #expect(
            harness.lines == [
                "ok   step 1 'gone' (delete): deleted 0 sys_user_grmember records: vars.stale_ids is empty: no record matches (N ms)",
                "ok   step 2 'found' (query): 0 records from sys_user_grmember: vars.stale_ids is empty: no record matches (N ms)",
                "ok   step 3 (assert): holds: steps.gone.count == 0 && steps.found.count == 0 (N ms)",
            ])
        #expect(harness.requests.allSatisfy { $0.path.hasPrefix("/api/now/table/sys_user_grmember") == false })
    }

    /// Comparisons, lists, patterns, emptiness, BETWEEN, dot-walks and `or:` become the conditions they name, and
    /// select what the same encoded query selects.
    @Test func operatorsSelectWhatTheyName() async throws {
        let harness = try RunHarness()
        let query = "opened_at>=2020-01-01 00:00:00^priorityIN1,2^short_descriptionLIKEe^caller_idISNOTEMPTY"
            + "^sys_created_onBETWEEN2000-01-01 00:00:00@2100-01-01 00:00:00^caller_id.nameSTARTSWITHA"
            + "^category=network^ORcategory=database"
        let expected = try harness.sysIDs("incident", query)
        #expect(!expected.isEmpty)
        let result = try await harness.run(
            """
            name: Operators
            steps:
              - id: found
                query:
                  table: incident
                  fields: [sys_id]
                  where:
                    opened_at: { ">=": "2020-01-01 00:00:00" }
                    priority: { in: [1, 2] }
                    short_description: { like: e }
                    caller_id: { empty: false }
                    sys_created_on: { between: ["2000-01-01 00:00:00", "2100-01-01 00:00:00"] }
                    caller_id.name: { starts_with: A }
                    or: [ { category: network }, { category: database } ]
              - assert: "count(steps.found.records) == \(expected.count)"
            """)
        #expect(result.status == .passed, "\(result.error ?? "")")
        let sent = harness.requests.compactMap { $0.queryItems.first { $0.name == "sysparm_query" }?.value }
        #expect(sent == [query])
    }

    /// A condition value known only at run time is checked against the field's type and choices before anything
    /// is sent, with the dictionary the name check read: a choice label is translated to its value, `yes` for a
    /// boolean and a name for a reference fail the step; a record stands for its sys_id, and a date from the
    /// expression language is a date.
    @Test func runTimeValuesAreCheckedBeforeSending() async throws {
        let harness = try RunHarness()
        let result = try await harness.run(
            """
            name: Run-time values
            vars: { state: Resolved, flag: "yes", caller: Abel Tuter }
            steps:
              - id: user
                query: { table: sys_user, where: { name: "${vars.caller}" }, limit: 1 }
              - id: by_record
                query: { table: incident, where: { caller_id: "${steps.user.records.0}" }, fields: [sys_id] }
              - assert: "steps.by_record.count > 0"
              - query: { table: incident, where: { state: "${vars.state}" } }
                continue_on_error: true
              - query: { table: incident, where: { active: "${vars.flag}" } }
                continue_on_error: true
              - update: { table: incident, query: "caller_id=${vars.caller}", max: 5, fields: { urgency: 3 } }
                continue_on_error: true
              - query: { table: incident, where: { opened_at: { ">=": "${now() - days(36500)}" } }, fields: [sys_id] }
            """, checkingNames: true)
        #expect(result.steps.filter { $0.status == .failed }.count == 2)
        #expect(
            harness.lines.dropFirst(3) == [
                "ok   step 4 (query): \(try harness.count("incident", "state=6")) records from incident (incident.state: Resolved = 6) (N ms)",
                "FAIL (continued) step 5 (query): where: 'yes' is not a boolean: incident.active takes true or false; nothing was sent (N ms)",
                "FAIL (continued) step 6 (update): query: 'Abel Tuter' is not a sys_id: incident.caller_id is a reference to sys_user; compare a sys_id, or a field of the record it references (caller_id.name); nothing was sent (N ms)",
                "ok   step 7 (query): \(try harness.count("incident", "")) records from incident (N ms)",
            ])
        let incidentQueries = harness.requests.filter { $0.path == "/api/now/table/incident" }
        #expect(incidentQueries.count == 3)
    }

    /// `state: Resolved` on an integer choice field is compared by its value, 6: the update by query changes the
    /// resolved network incidents only, where the instance would have ignored `state=Resolved` and changed every
    /// network incident. The dry run says so too.
    @Test func aChoiceLabelIsTranslatedToItsValue() async throws {
        let harness = try RunHarness()
        let resolved = try harness.sysIDs("incident", "category=network^state=6")
        let others = try harness.sysIDs("incident", "category=network^state!=6")
        #expect(!resolved.isEmpty && !others.isEmpty)
        let job = """
            name: Close out
            steps:
              - update: { table: incident, where: { category: network, state: Resolved }, max: 40, fields: { close_notes: swept } }
            """
        let planned = try await harness.run(job, dryRun: true, checkingNames: true)
        #expect(planned.status == .passed, "\(planned.error ?? "")")
        let result = try await harness.run(job, checkingNames: true)
        #expect(result.status == .passed, "\(result.error ?? "")")
        #expect(
            harness.lines == [
                "ok   step 1 (update): would update \(resolved.count) incident records (dry run) (incident.state: Resolved = 6) (N ms)",
                "ok   step 1 (update): updated \(resolved.count) incident records (incident.state: Resolved = 6) (N ms)",
            ])
        let sent = harness.requests.compactMap { $0.queryItems.first { $0.name == "sysparm_query" }?.value }
            .filter { !$0.contains("sys_dictionary") && !$0.hasPrefix("name") }
        #expect(sent == ["category=network^state=6", "category=network^state=6"])
        #expect(try harness.sysIDs("incident", "close_notes=swept").sorted() == resolved.sorted())
    }

    /// An `ensure` whose match selects no record finds none without asking the instance: `present` creates the
    /// record (without the empty list's field), `absent` has nothing to delete, and both lines say why; a dry run
    /// decides the same.
    @Test func anEnsureOverAnEmptyListFindsNoRecordWithoutAsking() async throws {
        let harness = try RunHarness()
        let job = """
            name: Empty match
            vars: { ids: [] }
            steps:
              - id: made
                ensure: { table: sys_user_group, match: { name: Empty match team, sys_id: "${vars.ids}" }, fields: { description: made } }
              - id: gone
                ensure: { table: sys_user_group, match: { sys_id: "${vars.ids}" }, state: absent }
              - assert: "steps.made.result == 'created' && steps.made.fields == ['name', 'description'] && steps.gone.result == 'absent'"
            """
        let planned = try await harness.run(job, dryRun: true)
        #expect(planned.status == .passed, "\(planned.error ?? "")")
        #expect(try harness.count("sys_user_group", "name=Empty match team") == 0)
        let result = try await harness.run(job)
        #expect(result.status == .passed, "\(result.error ?? "")")
        let made = try harness.sysIDs("sys_user_group", "name=Empty match team^description=made")
        #expect(made.count == 1)
        #expect(result.results["made"]?["sys_id"] == .string(made.first ?? ""))
        #expect(
            harness.lines == [
                "ok   step 1 'made' (ensure): would create sys_user_group Empty match team (dry-run-1) (dry run): vars.ids is empty: no record matches (N ms)",
                "ok   step 2 'gone' (ensure): absent from sys_user_group: vars.ids is empty: no record matches (N ms)",
                "ok   step 3 (assert): holds: steps.made.result == 'created' && steps.made.fields == ['name', 'description'] && steps.gone.result == 'absent' (N ms)",
                "ok   step 1 'made' (ensure): created sys_user_group Empty match team (<sys_id>): vars.ids is empty: no record matches (N ms)",
                "ok   step 2 'gone' (ensure): absent from sys_user_group: vars.ids is empty: no record matches (N ms)",
                "ok   step 3 (assert): holds: steps.made.result == 'created' && steps.made.fields == ['name', 'description'] && steps.gone.result == 'absent' (N ms)",
            ])
        // Nothing was looked for: the requests to sys_user_group are the dry run's read of a record's shape (for its
        // stand-in) and the create.
        let requests = harness.requests.filter { $0.path.hasPrefix("/api/now/table/sys_user_group") }
        #expect(requests.map(\.method) == ["GET", "POST"])
        #expect(requests.allSatisfy { request in !request.queryItems.contains { $0.name == "sysparm_query" } })
    }

    /// An `aggregate` whose filter selects no record asks nothing of the instance and gives what the instance
    /// gives for no record (a count of 0, empty sums, averages, minimums and maximums; no groups), saying why.
    @Test func anAggregateOverAnEmptyListCountsNothingWithoutAsking() async throws {
        let harness = try RunHarness()
        let stats = "sum: [reopen_count], avg: [reopen_count], min: [priority], max: [opened_at]"
        let result = try await harness.run(
            """
            name: Empty aggregate
            vars: { none: [] }
            steps:
              - id: empty
                aggregate: { table: incident, where: { sys_id: "${vars.none}" }, \(stats) }
              - id: groups
                aggregate: { table: incident, query: "sys_idIN${join(vars.none, ',')}", group_by: [priority] }
              - id: uncounted
                aggregate: { table: incident, where: { sys_id: { in: "${vars.none}" } }, count: false, sum: [reopen_count] }
              - id: unmatched
                aggregate: { table: incident, where: { short_description: no incident says this }, \(stats) }
            """)
        #expect(result.status == .passed, "\(result.error ?? "")")
        #expect(
            harness.lines == [
                "ok   step 1 'empty' (aggregate): 0 incident records: vars.none is empty: no record matches (N ms)",
                "ok   step 2 'groups' (aggregate): 0 groups of incident by priority: 'sys_idIN' compares with an empty list: no record matches (N ms)",
                "ok   step 3 'uncounted' (aggregate): the incident records: vars.none is empty: no record matches (N ms)",
                "ok   step 4 'unmatched' (aggregate): 0 incident records matching 'short_description=no incident says this' (N ms)",
            ])
        // The instance's own answer for no record is the same.
        #expect(result.results["empty"] == result.results["unmatched"])
        #expect(result.results["empty"]?["stats"]?["count"] == 0)
        #expect(result.results["groups"] == ["groups": [], "count": 0])
        #expect(result.results["uncounted"] == ["stats": ["sum": ["reopen_count": ""]]])
        #expect(harness.requests.map(\.path) == ["/api/now/stats/incident"])
    }
}
