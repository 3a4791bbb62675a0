import Foundation
import Testing

@Suite struct ValidateCommandTests {
    @Test func validFilesPassWithStatusZero() throws {
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try "name: Ping\nsteps:\n  - query: { table: incident, limit: 1 }\n".write(
            to: directory.appendingPathComponent("ping.yaml"), atomically: true, encoding: .utf8)
        let result = try ToolInvocation.run(["validate", "ping.yaml"], in: directory)
        #expect(result.status == 0)
        #expect(result.stdout == "ping.yaml: ok (Ping, 1 step)\n")
        #expect(result.stderr == "")
    }

    @Test func everyProblemOfEveryFileIsPrintedWithStatusTwo() throws {
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try """
        name: Broken
        steps:
          - qurey: { table: incident }
          - delete: { table: incident, query: active=false }
        """.write(to: directory.appendingPathComponent("broken.yaml"), atomically: true, encoding: .utf8)
        try "name: Fine\nsteps: []\n".write(
            to: directory.appendingPathComponent("fine.yaml"), atomically: true, encoding: .utf8)
        let result = try ToolInvocation.run(["validate", "broken.yaml", "fine.yaml", "missing.yaml"], in: directory)
        #expect(result.status == 2)
        #expect(result.stdout == "fine.yaml: ok (Fine, 0 steps)\n")
        #expect(
            result.stderr == """
                broken.yaml:3:5: error: unknown step kind 'qurey'; did you mean 'query'?
                broken.yaml:4:13: error: a delete by where:/query: needs max:, the most records it may delete; when more match, nothing is deleted
                missing.yaml: error: no such file

                """)
    }

    @Test func noFileIsAUsageError() throws {
        let directory = try ToolInvocation.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try ToolInvocation.run(["validate"], in: directory)
        #expect(result.status == 1)
        #expect(result.stderr == "nowflow validate: no job file given\nsee 'nowflow validate --help'\n")
        let unknown = try ToolInvocation.run(["validate", "--lenient", "x.yaml"], in: directory)
        #expect(unknown.status == 1)
        #expect(unknown.stderr == "nowflow validate: unknown option --lenient\nsee 'nowflow validate --help'\n")
    }
}
