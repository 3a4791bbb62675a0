import Foundation
import Testing

/// `nowflow run` of an `ensure` job twice on the embedded instance: created then unchanged, exit 0 then 0, and with
/// `--detailed-exitcode` 5 (something changed) then 0 (no drift).
@Suite struct EnsureCommandTests {
    static let job = """
        name: Team as wanted
        vars:
          group: Platform Ops
        steps:
          - id: group
            ensure:
              table: sys_user_group
              match: { name: "${vars.group}" }
              fields: { description: Runs the platform, manager: Beth Anglin }
              input_display_value: true
        """

    private func normalized(_ text: String) -> String {
        text.replacingOccurrences(of: #"\d+ ms"#, with: "N ms", options: .regularExpression)
            .replacingOccurrences(of: #"[0-9a-f]{32}"#, with: "<sys_id>", options: .regularExpression)
    }

    private func home() throws -> URL {
        let directory = try ToolInvocation.temporaryDirectory()
        try Self.job.write(to: directory.appendingPathComponent("team.yaml"), atomically: true, encoding: .utf8)
        return directory
    }

    @Test func twiceCreatedThenUnchangedExitZeroBothTimes() throws {
        let directory = try home()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try ToolInvocation.run(["run", "team.yaml"], in: directory)
        #expect(first.status == 0)
        #expect(
            normalized(first.stderr) == """
                ok   step 1 'group' (ensure): created sys_user_group Platform Ops (<sys_id>) (N ms)

                """)
        #expect(
            normalized(first.stdout) == """
                     name         Platform Ops
                     description  Runs the platform
                     manager      <sys_id>
                Team as wanted: passed (1 step run, N ms)
                1 record changed
                records touched:
                  sys_user_group Platform Ops (<sys_id>): created by step 1 'group' (ensure)

                """)
        let second = try ToolInvocation.run(["run", "team.yaml"], in: directory)
        #expect(second.status == 0)
        #expect(
            normalized(second.stderr) == """
                ok   step 1 'group' (ensure): unchanged sys_user_group Platform Ops (<sys_id>) (N ms)

                """)
        #expect(
            normalized(second.stdout) == """
                Team as wanted: passed (1 step run, N ms)
                1 record unchanged

                """)
    }

    @Test func detailedExitCodeIsFiveWhenSomethingChangedThenZero() throws {
        let directory = try home()
        defer { try? FileManager.default.removeItem(at: directory) }
        let plan = try ToolInvocation.run(["run", "team.yaml", "--dry-run", "--detailed-exitcode"], in: directory)
        #expect(plan.status == 5)
        #expect(
            normalized(plan.stderr) == """
                ok   step 1 'group' (ensure): would create sys_user_group Platform Ops (dry-run-1) (dry run) (N ms)

                """)
        let first = try ToolInvocation.run(["run", "team.yaml", "--detailed-exitcode"], in: directory)
        #expect(first.status == 5)
        let second = try ToolInvocation.run(["run", "team.yaml", "--detailed-exitcode"], in: directory)
        #expect(second.status == 0)
        let drift = try ToolInvocation.run(
            ["run", "team.yaml", "--detailed-exitcode", "--dry-run", "--var", "group=Platform Ops"], in: directory)
        #expect(drift.status == 0)
        #expect(
            normalized(drift.stdout) == """
                Team as wanted: dry run passed (1 step run, N ms, dry run)
                1 record unchanged

                """)
        let other = try ToolInvocation.run(
            ["run", "team.yaml", "--detailed-exitcode", "--var", "group=Data Ops"], in: directory)
        #expect(other.status == 5)
    }

    /// The drift check of workflows/: a dry run and a run find drift (exit 5), the next run none (exit 0); a change
    /// made by hand is drift again, and only that field is put right.
    @Test func theDriftCheckWorkflow() throws {
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = WorkflowTests.directory.appendingPathComponent("team-drift.yaml").path
        let plan = try ToolInvocation.run(["run", path, "--dry-run", "--detailed-exitcode"], in: directory)
        #expect(plan.status == 5, "\(plan.stderr)")
        #expect(normalized(plan.stdout).contains("\n4 records would change, 1 unchanged\n"))
        let first = try ToolInvocation.run(["run", path, "--detailed-exitcode"], in: directory)
        #expect(first.status == 5, "\(first.stderr)")
        #expect(normalized(first.stdout).contains("\n4 records changed, 1 unchanged\n"))
        let second = try ToolInvocation.run(["run", path, "--detailed-exitcode"], in: directory)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(
            normalized(second.stderr) == """
                ok   step 1 'manager' (query): 1 record from sys_user (N ms)
                ok   step 2 (assert): holds: steps.manager.count == 1 (N ms)
                ok   step 3 'group' (ensure): unchanged sys_user_group Platform Ops (<sys_id>) (N ms)
                ok   step 4[0].1 'user' (query): 1 record from sys_user (N ms)
                ok   step 4[0].2 (assert): holds: steps.user.count == 1 (N ms)
                ok   step 4[0].3 'membership' (ensure): unchanged sys_user_grmember <sys_id> (N ms)
                ok   step 4[1].1 'user' (query): 1 record from sys_user (N ms)
                ok   step 4[1].2 (assert): holds: steps.user.count == 1 (N ms)
                ok   step 4[1].3 'membership' (ensure): unchanged sys_user_grmember <sys_id> (N ms)
                ok   step 4[2].1 'user' (query): 1 record from sys_user (N ms)
                ok   step 4[2].2 (assert): holds: steps.user.count == 1 (N ms)
                ok   step 4[2].3 'membership' (ensure): unchanged sys_user_grmember <sys_id> (N ms)
                ok   step 4 'members' (foreach): 3 items, 4 at a time (N ms)
                ok   step 5[0].1 'former_user' (query): 1 record from sys_user (N ms)
                ok   step 5[0].2 'removal' (ensure): absent: no sys_user_grmember record matches 'group=<sys_id>^user=<sys_id>' (N ms)
                ok   step 5 'former' (foreach): 1 item (N ms)

                """)
        #expect(
            normalized(second.stdout) == """
                     sys_id                            name
                     --------------------------------  -----------
                     <sys_id>  Bud Richman
                     sys_id
                     --------------------------------
                     <sys_id>
                     sys_id
                     --------------------------------
                     <sys_id>
                     sys_id
                     --------------------------------
                     <sys_id>
                     sys_id
                     --------------------------------
                     <sys_id>
                Team drift check: passed (16 steps run, N ms)
                5 records unchanged

                """)
    }
}
