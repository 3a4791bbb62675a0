import Foundation
import NowData
import Testing

@testable import NowFlow

/// The `order` step: its validation, an item ordered by name for a user by name with its variables and followed to
/// its requested item and task, a second identical order (a second request), the failures it names (an item or a
/// user not found, the instance's refusal), and a dry run.
@Suite struct OrderStepTests {
    @Test func validationSaysWhatIsMissingOrWrong() throws {
        let text = """
            name: Bad
            steps:
              - order: { quantity: 2 }
              - order: { item: Standard Laptop, quantity: 0 }
              - order: { item: Standard Laptop, variables: [a, b] }
              - order: { item: Standard Laptop, wait: soon }
              - order: { item: Standard Laptop, requested: abel.tuter }
            """
        var diagnostics: [String] = []
        do {
            _ = try JobFile.parse(text, file: "job.yaml")
        } catch {
            diagnostics = error.diagnostics.map(\.description)
        }
        #expect(
            diagnostics == [
                "job.yaml:3:12: error: order needs item:",
                "job.yaml:4:47: error: order.quantity must be at least 1, not 0",
                "job.yaml:5:48: error: order.variables must be a mapping, not a list",
                "job.yaml:6:43: error: order.wait must be a duration such as 2s, 500ms or 1m",
                "job.yaml:7:37: error: unknown key 'requested' in order; expected item, quantity, requested_for, "
                    + "variables or wait",
            ])
    }

    @Test func anItemIsOrderedAndFollowedToItsTask() async throws {
        let harness = try RunHarness()
        let job = """
            name: Order
            steps:
              - id: first
                order:
                  item: Standard Laptop
                  requested_for: abel.tuter
                  variables: { acrobat: "true", Additional_software_requirements: Xcode and Docker }
              - assert: "len(steps.first.items) == 1 && len(steps.first.tasks) == 1"
              - assert: "steps.first.tasks.0.request_item == steps.first.items.0.sys_id"
              - id: second
                order:
                  item: Standard Laptop
                  requested_for: abel.tuter
                  variables: { acrobat: "true", Additional_software_requirements: Xcode and Docker }
              - assert: "steps.second.sys_id != steps.first.sys_id && steps.second.items.0.quantity == '1'"
            """
        let result = try await harness.run(job)
        #expect(result.status == .passed, "\(result.error ?? "")")
        #expect(
            harness.lines == [
                "ok   step 1 'first' (order): REQ0010003: 1 requested item (RITM0010003), 1 catalog task "
                    + "(SCTASK0010003) (N ms)",
                "ok   step 2 (assert): holds: len(steps.first.items) == 1 && len(steps.first.tasks) == 1 (N ms)",
                "ok   step 3 (assert): holds: steps.first.tasks.0.request_item == steps.first.items.0.sys_id (N ms)",
                "ok   step 4 'second' (order): REQ0010004: 1 requested item (RITM0010004), 1 catalog task "
                    + "(SCTASK0010004) (N ms)",
                "ok   step 5 (assert): holds: steps.second.sys_id != steps.first.sys_id && "
                    + "steps.second.items.0.quantity == '1' (N ms)",
            ])
        let abel = try #require(try harness.sysIDs("sys_user", "user_name=abel.tuter").first)
        #expect(try harness.count("sc_request", "requested_for=\(abel)^ORDERBYDESCsys_created_on") >= 2)
        #expect(try harness.count("sc_item_option", "value=Xcode and Docker") == 2)
    }

    @Test func whatCannotBeOrderedFailsTheStepNamingIt() async throws {
        let harness = try RunHarness()
        for (step, message) in [
            (
                "{ item: Golden Laptop }",
                "step 1 (order): order.item: no catalog item the job's user may order is named 'Golden Laptop'"
            ),
            (
                "{ item: Standard Laptop, requested_for: nobody }",
                "step 1 (order): order.requested_for: no user is named 'nobody'"
            ),
            (
                "{ item: \(String(repeating: "a", count: 32)) }",
                "step 1 (order): bad response 400 from POST /api/sn_sc/servicecatalog/items/<sys_id>/order_now: "
                    + "Security constraints prevent ordering of Item (No active catalog item with the sys_id "
                    + "'<sys_id>' may be ordered by this user)"
            ),
        ] {
            let result = try await harness.run("name: Order\nsteps:\n  - order: \(step)\n")
            #expect(result.status == .failed)
            #expect(RunHarness.normalized(result.error ?? "") == message)
        }
    }

    @Test func aDryRunFindsTheItemAndKeepsTheOrder() async throws {
        let harness = try RunHarness()
        let before = try harness.count("sc_request", "")
        let result = try await harness.run(
            """
            name: Order
            steps:
              - id: order
                order: { item: Standard Laptop, quantity: 2 }
              - assert: "steps.order.items.0.request == steps.order.sys_id && steps.order.items.0.quantity == '2'"
              - update: { table: sc_req_item, sys_id: "${steps.order.items.0.sys_id}", fields: { stage: complete } }
            """, dryRun: true)
        #expect(result.status == .passed, "\(result.error ?? "")")
        #expect(
            harness.lines == [
                "ok   step 1 'order' (order): would order Standard Laptop (quantity 2) (dry run) (N ms)",
                "ok   step 2 (assert): holds: steps.order.items.0.request == steps.order.sys_id && "
                    + "steps.order.items.0.quantity == '2' (N ms)",
                "ok   step 3 (update): would update sc_req_item dry-run-2 (dry run) (N ms)",
            ])
        #expect(
            result.plannedWrites.map { RunHarness.normalized($0.description) } == [
                #"POST /api/sn_sc/servicecatalog/items/<sys_id>/order_now {"sysparm_quantity":"2","variables":{}}"#,
                #"PATCH /api/now/table/sc_req_item/dry-run-2 {"stage":"complete"}"#,
            ])
        #expect(try harness.count("sc_request", "") == before)
    }
}
