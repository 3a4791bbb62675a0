import Foundation
import Testing

/// Table and field names checked against the instance's dictionary before `nowflow run` sends anything.
@Suite struct NameCheckTests {
    static let job = """
        name: Typo
        steps:
          - id: open
            query: { table: incident, where: { active: true, caller_id.nme: x }, fields: [number, shortdescription, caller_id.manager.name, caller_id.first_name.name], order_by: numbr }
          - update: { table: incident, where: { priorty: 1, active: true }, max: 100, fields: { urgency: 1 } }
          - create: { table: incidnet, fields: { urgencyy: 1 } }
          - foreach: steps.open.records
            steps:
              - create: { table: incident, fields: { urgencyy: 1, short_description: "${item.number}" } }
        """

    @Test func aTypoIsRefusedWithItsPositionAndADidYouMeanBeforeAnythingRuns() throws {
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.job.write(to: directory.appendingPathComponent("job.yaml"), atomically: true, encoding: .utf8)
        let result = try ToolInvocation.run(["run", "job.yaml", "--dry-run"], in: directory)
        #expect(result.status == 2)
        #expect(result.stdout == "")
        #expect(
            result.stderr == """
                job.yaml:4:54: error: unknown field 'nme' in sys_user (in 'caller_id.nme'); did you mean 'name'?
                job.yaml:4:91: error: unknown field 'shortdescription' in incident; did you mean 'short_description'?
                job.yaml:4:133: error: 'first_name' in sys_user is not a reference field: 'caller_id.first_name.name' cannot walk through it
                job.yaml:4:171: error: unknown field 'numbr' in incident; did you mean 'number'?
                job.yaml:5:41: error: unknown field 'priorty' in incident; did you mean 'priority'?
                job.yaml:6:22: error: unknown table 'incidnet'; did you mean 'incident'?
                job.yaml:9:46: error: unknown field 'urgencyy' in incident; did you mean 'urgency'?

                """)
    }

    @Test func offlineSkipsTheCheck() throws {
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try """
        name: Offline
        steps:
          - query: { table: incident, where: { priorty: 1 }, limit: 1 }
        """.write(to: directory.appendingPathComponent("job.yaml"), atomically: true, encoding: .utf8)
        let checked = try ToolInvocation.run(["run", "job.yaml"], in: directory)
        #expect(checked.status == 2)
        #expect(checked.stderr == "job.yaml:3:40: error: unknown field 'priorty' in incident; did you mean 'priority'?\n")
        let offline = try ToolInvocation.run(["run", "job.yaml", "--offline"], in: directory)
        #expect(offline.status == 0, "\(offline.stderr)")
    }

    @Test func validateChecksNamesAgainstTheInstanceItIsGiven() throws {
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try """
        name: Typo
        steps:
          - update: { table: incident, where: { priorty: 1, active: true }, max: 100, fields: { urgency: 1 } }
        """.write(to: directory.appendingPathComponent("job.yaml"), atomically: true, encoding: .utf8)
        let offline = try ToolInvocation.run(["validate", "job.yaml"], in: directory)
        #expect(offline.status == 0)
        #expect(offline.stdout == "job.yaml: ok (Typo, 1 step)\n")
        let checked = try ToolInvocation.run(["validate", "job.yaml", "--instance", "local"], in: directory)
        #expect(checked.status == 2)
        #expect(checked.stdout == "")
        #expect(checked.stderr == "job.yaml:3:41: error: unknown field 'priorty' in incident; did you mean 'priority'?\n")
    }
}
